# Shell helpers for the walkthroughs (docs/walkthroughs.md) and npm start's examples.
# Source it from the repository root:   . examples/walkthrough.sh
# API and AUTH default to npm start's addresses; set them first for moved ports.

API=${API:-http://127.0.0.1:5000/api}
AUTH=${AUTH:-http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1}

# call <path under $API, or a URL> [curl options…]
# Prints the reply. A 429 is waited out (its Retry-After) and sent again, so a walkthrough pasted
# right after the seed, or twice, does not trip on the demo's rate limit. Any other error prints
# "HTTP <status>" and the API's JSON error on stderr and fails, so `X=$(call …)` stays empty.
call() {
  local url=$1 body headers status wait
  shift
  case $url in http://* | https://*) ;; *) url=$API$url ;; esac
  body=$(mktemp) headers=$(mktemp)
  while :; do
    status=$(curl -s -o "$body" -D "$headers" -w '%{http_code}' "$url" "$@")
    [ "$status" = 429 ] || break
    wait=$(tr -d '\r' <"$headers" | sed -n 's/^[Rr]etry-[Aa]fter: *\([0-9][0-9]*\).*/\1/p')
    echo "(rate limited: waiting ${wait:-5} s, as Retry-After says)" >&2
    sleep "${wait:-5}"
  done
  if [ "$status" -ge 200 ] && [ "$status" -lt 400 ]; then
    cat "$body"
    # A newline after a JSON or text reply, so the next prompt starts on its own line; files stay as sent.
    if grep -qi '^content-type: *\(application/json\|text/\)' "$headers"; then echo; fi
    rm -f "$body" "$headers"
    return 0
  fi
  if [ "$status" = 000 ]; then
    echo "No answer from $url: is npm start running (and API/AUTH set for moved ports)?" >&2
  else
    echo "HTTP $status $(cat "$body")" >&2
  fi
  rm -f "$body" "$headers"
  return 1
}

# json <JavaScript expression of v>: reads a JSON reply on stdin and prints the expression's value
# (a string as it is, anything else as JSON). Nothing found says so and fails; nothing to read (the
# call before failed and said why) fails quietly.
json() {
  node -e '
    const text = require("fs").readFileSync(0, "utf8");
    // Nothing to read: the call before failed, and has said why.
    if (!text.trim()) process.exit(1);
    const expression = process.argv[1];
    let value;
    try {
      value = new Function("v", `return (${expression});`)(JSON.parse(text));
    } catch (err) {
      console.error(`(${expression}: ${err.message})`);
      process.exit(1);
    }
    if (value === undefined || value === null) { console.error(`(${expression}: not in the reply)`); process.exit(1); }
    console.log(typeof value === "string" ? value : JSON.stringify(value));
  ' "$1"
}

# signin <email> [password]: signs in at the Auth emulator; prints the ID token.
signin() {
  call "$AUTH/accounts:signInWithPassword?key=demo-key" -H 'Content-Type: application/json' \
    -d "{\"email\":\"$1\",\"password\":\"${2:-demo-pass-1234}\",\"returnSecureToken\":true}" | json 'v.idToken'
}
