// What of the emulators' output `npm start` shows on the terminal: only what went wrong.
// Everything else (firebase-tools' start-up table, a line per request, workers starting) goes to
// the log file, so the banner and the reader's own commands stay readable.

const WENT_WRONG = [
  // A function's log entry at ERROR or worse (firebase-functions' logger writes JSON).
  /"severity":"(ERROR|CRITICAL|ALERT|EMERGENCY)"/,
  // firebase-tools' own failures and warnings.
  /^(✖|⚠|!+)\s/,
];
const KNOWN_HARMLESS = [
  // Every new worker: firebase-tools runs the functions on the host's Node, which is fine here.
  /doesn't match your global version/,
  /Java version < 21/,
  /Unable to fetch the CLI MOTD/,
  // scripts/firestore-emulator.mjs and storage-emulator.mjs point firebase-tools at the pinned jars on purpose.
  /Env variable override detected/,
  // No emulator UI is configured: the banner names every address instead.
  /The Emulator UI is not starting/,
];

/** @param {string} line one line of the emulators' output */
export const showOnTerminal = (line) =>
  WENT_WRONG.some((pattern) => pattern.test(line)) && !KNOWN_HARMLESS.some((pattern) => pattern.test(line));
