// A stand-in for Google's Cloud Storage rules runtime (cloud-storage-rules-runtime-*.jar), which
// firebase-tools downloads from storage.googleapis.com and which machines without internet access
// cannot get. It speaks the runtime's protocol (one JSON request a line on stdin, one JSON reply a
// line on stdout; see firebase-tools lib/emulator/storage/rules/runtime.js) and answers every
// client request with "denied". That is exactly what storage.rules says: only the Admin SDK touches
// Storage, and the emulator lets admin credentials through without asking the runtime at all.
// A ruleset that allows anything is refused with an error, so the emulator denies everything
// rather than pretending to enforce rules this program cannot evaluate.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public final class DenyAllRulesRuntime {
  private static final PrintStream OUT = new PrintStream(System.out, true, StandardCharsets.UTF_8);

  public static void main(String[] args) throws Exception {
    // firebase-tools waits for a reply to request -1 before it sends anything.
    reply("{\"id\":-1,\"status\":\"ok\"}");
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isBlank()) continue;
      Object id = null;
      try {
        @SuppressWarnings("unchecked")
        Map<String, Object> request = (Map<String, Object>) new Json(line).value();
        id = request.get("id");
        reply(answer(request));
      } catch (RuntimeException e) {
        reply(
            "{\"id\":" + (id instanceof Long ? id : -2) + ",\"status\":\"ok\",\"result\":null,\"errors\":["
                + quote("DenyAllRulesRuntime: " + e.getMessage()) + "],\"warnings\":[]}");
      }
    }
  }

  private static void reply(String json) {
    OUT.println(json);
  }

  @SuppressWarnings("unchecked")
  private static String answer(Map<String, Object> request) {
    long id = (Long) request.get("id");
    String action = String.valueOf(request.get("action"));
    Map<String, Object> context = (Map<String, Object>) request.get("context");
    switch (action) {
      case "load_ruleset": {
        Map<String, Object> source = (Map<String, Object>) context.get("source");
        StringBuilder rules = new StringBuilder();
        for (Object file : (List<Object>) source.get("files")) {
          rules.append(((Map<String, Object>) file).get("content")).append('\n');
        }
        String error = denyAllError(rules.toString());
        if (error != null) return result(id, null, error);
        return result(id, "{\"rulesVersion\":" + rulesVersion(rules.toString()) + "}", null);
      }
      case "verify":
        return result(id, "{\"permit\":false}", null);
      default:
        return result(id, null, "unknown action " + action);
    }
  }

  private static String result(long id, String result, String error) {
    return "{\"id\":" + id + ",\"status\":\"ok\",\"result\":" + (result == null ? "null" : result)
        + ",\"errors\":[" + (error == null ? "" : quote(error)) + "],\"warnings\":[]}";
  }

  private static String stripComments(String rules) {
    return rules.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\\n]*", " ");
  }

  /** Null when every allow statement is `allow …: if false;`, else why the ruleset is refused. */
  private static String denyAllError(String rules) {
    String code = stripComments(rules);
    if (!code.contains("service firebase.storage")) return "not a firebase.storage ruleset";
    Matcher allow = Pattern.compile("\\ballow\\b([^;]*);").matcher(code);
    while (allow.find()) {
      if (!allow.group(1).matches("(?s)[\\s\\w,]*:\\s*if\\s+false\\s*")) {
        return "this offline rules runtime can only deny; it cannot evaluate `allow"
            + allow.group(1).replaceAll("\\s+", " ") + ";` (docs/operations.md, Storage emulator offline)";
      }
    }
    return null;
  }

  private static int rulesVersion(String rules) {
    Matcher m = Pattern.compile("rules_version\\s*=\\s*['\"](\\d+)['\"]").matcher(stripComments(rules));
    return m.find() ? Integer.parseInt(m.group(1)) : 1;
  }

  private static String quote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }

  /** Just enough JSON to read a request: objects, arrays, strings, numbers, true, false, null. */
  private static final class Json {
    private final String s;
    private int i;

    Json(String s) {
      this.s = s;
    }

    Object value() {
      skip();
      char c = s.charAt(i);
      if (c == '{') {
        Map<String, Object> map = new LinkedHashMap<>();
        i++;
        skip();
        if (s.charAt(i) == '}') {
          i++;
          return map;
        }
        while (true) {
          skip();
          String key = string();
          skip();
          expect(':');
          map.put(key, value());
          skip();
          if (s.charAt(i++) == '}') return map;
        }
      }
      if (c == '[') {
        List<Object> list = new ArrayList<>();
        i++;
        skip();
        if (s.charAt(i) == ']') {
          i++;
          return list;
        }
        while (true) {
          list.add(value());
          skip();
          if (s.charAt(i++) == ']') return list;
        }
      }
      if (c == '"') return string();
      if (s.startsWith("true", i)) {
        i += 4;
        return Boolean.TRUE;
      }
      if (s.startsWith("false", i)) {
        i += 5;
        return Boolean.FALSE;
      }
      if (s.startsWith("null", i)) {
        i += 4;
        return null;
      }
      int start = i;
      while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
      String number = s.substring(start, i);
      if (number.isEmpty()) throw new IllegalArgumentException("bad JSON at " + start);
      return number.matches("-?\\d+") ? (Object) Long.parseLong(number) : (Object) Double.parseDouble(number);
    }

    private String string() {
      expect('"');
      StringBuilder b = new StringBuilder();
      while (true) {
        char c = s.charAt(i++);
        if (c == '"') return b.toString();
        if (c != '\\') {
          b.append(c);
          continue;
        }
        char e = s.charAt(i++);
        switch (e) {
          case 'n': b.append('\n'); break;
          case 't': b.append('\t'); break;
          case 'r': b.append('\r'); break;
          case 'b': b.append('\b'); break;
          case 'f': b.append('\f'); break;
          case 'u': b.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; break;
          default: b.append(e);
        }
      }
    }

    private void expect(char c) {
      if (s.charAt(i) != c) throw new IllegalArgumentException("expected " + c + " at " + i);
      i++;
    }

    private void skip() {
      while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
    }
  }
}
