// What of the emulators' output `npm start` still shows once its banner is printed: only what
// went wrong. Everything else (a line per request, workers starting) goes to the log file, so the
// banner and the reader's own commands stay readable.

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
];

/** @param {string} line one line of the emulators' output */
export const showAfterBanner = (line) =>
  WENT_WRONG.some((pattern) => pattern.test(line)) && !KNOWN_HARMLESS.some((pattern) => pattern.test(line));
