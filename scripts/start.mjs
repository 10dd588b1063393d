// `npm start`: builds the functions, starts the Auth, Firestore, Functions and
// Hosting emulators (project demo-exam), waits for the API to answer, seeds the
// demo data and prints how to use it. Ctrl-C stops the emulators cleanly.
//
// FIREBASE_JSON (another emulator config, see scripts/isolated-config.mjs) and
// API_BASE_URL move it off the default ports; START_TIMEOUT_SECONDS (default
// 180) bounds the wait for the API.
import { createWriteStream, mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildFunctions, buildWeb, emulatorLogFile, emulatorsStart } from './emulators.mjs';
import { showOnTerminal } from './lib/emulatorOutput.mjs';
import { DEMO_PROJECT, emulatorAddresses, seedDemo } from './seed.mjs';

const timeoutSeconds = Number(process.env.START_TIMEOUT_SECONDS ?? 180);
const TIMEOUT_MS = (Number.isFinite(timeoutSeconds) && timeoutSeconds > 0 ? timeoutSeconds : 180) * 1000;
const configFile = process.env.FIREBASE_JSON ?? 'firebase.json';

let addresses;
try {
  addresses = emulatorAddresses(configFile);
} catch (err) {
  process.stderr.write(`npm start: cannot read the emulator config ${configFile}: ${err.message}\n`);
  process.exit(1);
}
const baseUrl = (process.env.API_BASE_URL ?? `http://${addresses.hosting}`).replace(/\/+$/, '');
const authUrl = `http://${addresses.auth}/identitytoolkit.googleapis.com`;
const healthUrl = `${baseUrl}/api/health`;

const say = (line = '') => process.stdout.write(`${line}\n`);
const fail = (message) => process.stderr.write(`\nnpm start: ${message}\n`);

// ── Before anything starts: the ports must be ours ───────────────────────────
// Otherwise the health check could be answered by someone else's emulators.
function listening(address) {
  const [, host, port] = /^\[?(.*?)\]?:(\d+)$/.exec(address);
  return new Promise((resolve) => {
    const socket = connect({ host, port: Number(port) });
    const done = (result) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

const busy = [];
for (const [name, address] of Object.entries(addresses)) {
  if (await listening(address)) busy.push(`${name} ${address}`);
}
if (busy.length > 0) {
  fail(
    `these emulator ports are already in use: ${busy.join(', ')}.\n` +
      'Another emulator set (or `npm start`) is running. Stop it, or run this one beside it on other ports:\n' +
      '  node scripts/isolated-config.mjs mine 300   # prints FIREBASE_JSON=... API_BASE_URL=...\n' +
      '  FIREBASE_JSON=firebase.mine.json API_BASE_URL=http://127.0.0.1:5300 npm start',
  );
  process.exit(1);
}

buildFunctions();
buildWeb();

// ── The emulators: their output in a file; on the terminal only what went wrong ──
// (firebase-tools' own start-up table and a line per seeding request would bury the banner,
// which names every address itself.)
// The emulators get their own addresses from the config; a stray value in our
// environment must not reach them.
delete process.env.FIRESTORE_EMULATOR_HOST;
delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
const child = emulatorsStart(DEMO_PROJECT);
const startedAt = Date.now();
let emulatorsReady = false; // firebase-tools said so; until then the API cannot answer
const logFile = emulatorLogFile('start');
say(`Starting the emulators (their whole log: ${logFile}) ...`);
mkdirSync(dirname(logFile), { recursive: true });
const log = createWriteStream(logFile);
for (const [stream, out] of [
  [child.stdout, process.stdout],
  [child.stderr, process.stderr],
]) {
  createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
    if (line.includes('All emulators ready')) emulatorsReady = true;
    log.write(`${line}\n`);
    if (showOnTerminal(line)) out.write(`[emulators] ${line}\n`);
  });
}

let ready = false;
let stopping = false;
let stopExitCode = 0;
let firstSignalAt = 0;
let exited = false;
const childExit = new Promise((resolve) =>
  child.on('close', (code, signal) => {
    exited = true;
    resolve({ code, signal });
  }),
);
const forever = () => new Promise(() => {}); // the exit handler below ends the process

childExit.then(({ code, signal }) => {
  if (stopping) {
    say('Emulators stopped.');
    process.exit(stopExitCode);
  }
  fail(
    `the emulators exited (${signal ?? `code ${code}`}) ${ready ? 'unexpectedly' : 'before the API came up'}. ` +
      `See their output in ${logFile}, and firebase-debug.log.`,
  );
  process.exit(code || 1);
});

// Ctrl-C reaches the emulators straight from the terminal too, and npm forwards
// it to us: pass on the first signal only, so firebase-tools sees one and shuts
// down cleanly. A repeat after two seconds is passed on: firebase-tools then stops at once.
function onSignal(signal) {
  const now = Date.now();
  if (!stopping) {
    stopping = true;
    firstSignalAt = now;
    say('\nStopping the emulators (Ctrl-C again to force)...');
  } else if (now - firstSignalAt < 2000) {
    return;
  }
  if (!exited) child.kill(signal);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => onSignal(signal));
// `kill <npm pid>` ends npm and its shell but not us: once orphaned, stop as if told to.
const parentPid = process.ppid;
setInterval(() => process.ppid !== parentPid && onSignal('SIGTERM'), 1000).unref();

/** After a failure of ours: stop the emulators cleanly, then exit 1. */
async function abort(message) {
  fail(message);
  if (stopping) return forever();
  stopping = true;
  stopExitCode = 1;
  child.kill('SIGINT');
  // A second signal makes firebase-tools stop without waiting any longer.
  setTimeout(() => exited || child.kill('SIGINT'), 30_000).unref();
  return forever();
}

// ── Wait for the API through the Hosting rewrite ────────────────────────────
let lastResult = 'no answer yet';
const deadline = Date.now() + TIMEOUT_MS;
while (!ready) {
  if (stopping) await forever();
  if (Date.now() > deadline) {
    await abort(
      `${healthUrl} did not answer 200 within ${TIMEOUT_MS / 1000} s (last: ${lastResult}).\n` +
        'See the emulator output above and firebase-debug.log; START_TIMEOUT_SECONDS raises the limit.',
    );
  }
  // Poll once firebase-tools reports ready (or after a minute, should its wording change).
  if (!emulatorsReady && Date.now() - startedAt < 60_000) {
    lastResult = 'the emulators have not reported ready';
    await sleep(500);
    continue;
  }
  try {
    const res = await fetch(healthUrl, { signal: AbortSignal.timeout(10_000) });
    if (res.status === 200) ready = true;
    else lastResult = `HTTP ${res.status}`;
    await res.body?.cancel();
  } catch (err) {
    lastResult = err.cause?.code ?? err.name ?? String(err);
  }
  if (!ready) await sleep(500);
}

// ── Seed, then tell the user how to use it ──────────────────────────────────
say(`The API answers (${Math.round((Date.now() - startedAt) / 1000)} s); seeding the demo data ...`);
process.env.FIRESTORE_EMULATOR_HOST = addresses.firestore;
process.env.FIREBASE_AUTH_EMULATOR_HOST = addresses.auth;
let seeded;
try {
  seeded = await seedDemo({ projectId: DEMO_PROJECT, baseUrl });
} catch (err) {
  if (stopping) await forever(); // interrupted by Ctrl-C
  await abort(`seeding the demo data failed: ${err.stack ?? err}`);
}
if (stopping) await forever();

const { client, accounts, tests } = seeded;
const superAdmin = accounts.find((a) => a.role === 'super_admin');
const clientAdmin = accounts.find((a) => a.role === 'client_admin');
const pad = (text, width) => String(text).padEnd(width);
const rule = '─'.repeat(78);

say();
say(rule);
say(`Exam backend is running on the emulators (project ${seeded.projectId}).`);
say();
say(`  Web app    ${baseUrl}/   (sign in with an account below; guests use a share code)`);
say(`  API docs   ${baseUrl}/docs`);
say(`  Base URL   ${baseUrl}   (API under /api: ${baseUrl}/api/health, ${baseUrl}/api/openapi.json)`);
say(`  Auth URL   ${authUrl}`);
say(`  Admin SDK  FIREBASE_AUTH_EMULATOR_HOST=${addresses.auth} FIRESTORE_EMULATOR_HOST=${addresses.firestore}`);
say(`             (e.g. before npm run make-super-admin -- --email ... --password ...)`);
say();
say(`Demo accounts (client ${client.id} = "${client.name}"):`);
say(`  ${pad('role', 13)} ${pad('email', 31)} ${pad('password', 15)} client`);
for (const a of accounts) say(`  ${pad(a.role, 13)} ${pad(a.email, 31)} ${pad(a.password, 15)} ${a.client_id ?? '-'}`);
const [demoTest, sitting, pooled] = tests;
if (demoTest) {
  say();
  say('Demo tests:');
  say(
    `  ${demoTest.id}  "${demoTest.test_name}"  (${demoTest.status}, ${demoTest.questions} questions of every type, folder ${demoTest.folder})`,
  );
  say(`  share code for guests: ${demoTest.share_code}`);
  say(`  ${demoTest.submitted_attempts} submitted attempts, so its analytics show every measure (docs/analytics.md)`);
}
const accommodated = sitting && accounts.find((a) => a.uid === sitting.accommodation.student_id);
if (sitting) {
  const extra = sitting.accommodation.extra_time_percent;
  say();
  say(
    `  ${sitting.id}  "${sitting.test_name}"  (${sitting.status}, a ${sitting.timer}-minute timer, ${sitting.questions} questions)`,
  );
  say(
    `  open from ${sitting.opens_at} to ${sitting.closes_at} (before that a start answers 409); reviews from the closing time`,
  );
  say(
    `  share code for guests: ${sitting.share_code}   access code: ${sitting.access_code} (needed to start, beside test_id or share_code)`,
  );
  say(
    `  ${accommodated.display_name} (${accommodated.email}) has a standing accommodation of +${extra}%: ` +
      `${(sitting.timer * (100 + extra)) / 100} minutes on it instead of ${sitting.timer}`,
  );
}
if (pooled) {
  say();
  say(
    `  ${pooled.id}  "${pooled.test_name}"  (${pooled.status}, ${pooled.questions} questions: three drawn per attempt from the Demo Folder, then an essay)`,
  );
  say(
    `  share code for guests: ${pooled.share_code}   essays waiting for a grade: ${pooled.essays_to_grade} (the web app: Tests → the test → Grading)`,
  );
}
say();
say('Try it in bash or zsh, from this folder: the helpers of docs/walkthroughs.md (call waits out a 429),');
say('then sign in as the Super Admin and call the API with the ID token:');
say();
const moved = baseUrl !== 'http://127.0.0.1:5000' || authUrl !== 'http://127.0.0.1:9099/identitytoolkit.googleapis.com';
if (moved) say(`  API=${baseUrl}/api AUTH=${authUrl}/v1`);
say('  . examples/walkthrough.sh');
say(`  TOKEN=$(signin ${superAdmin.email})`);
say('  call /me -H "Authorization: Bearer $TOKEN"');
say('  call /clients -H "Authorization: Bearer $TOKEN"');
say();
say(
  `As the Client Admin of ${client.name}: its users, the audit log of its organization, and the demo test's analytics:`,
);
say();
say(`  TOKEN=$(signin ${clientAdmin.email})`);
say('  call /users -H "Authorization: Bearer $TOKEN"');
say(`  call '/audit-logs?limit=5' -H "Authorization: Bearer $TOKEN"`);
if (demoTest) say(`  call /analytics/tests/${demoTest.id} -H "Authorization: Bearer $TOKEN"`);
if (sitting) {
  say();
  say(
    `As ${accommodated.display_name}, from ${sitting.opens_at} on: its accommodation, then the sitting started with its access code (expires_at ${(100 + sitting.accommodation.extra_time_percent) / 100}x the timer after started_at):`,
  );
  say();
  say(`  TOKEN=$(signin ${accommodated.email})`);
  say('  call /me -H "Authorization: Bearer $TOKEN"');
  say(`  call /attempts -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\`);
  say(`    -d '{"test_id":"${sitting.id}","access_code":"${sitting.access_code}"}'`);
}
say();
say('More in docs/walkthroughs.md.');
say();
say(`The emulators' log: ${logFile} (only their errors show below).`);
say('Ctrl-C stops the emulators (the data lives in memory and is gone).');
say(rule);
