// @ts-check
// Counts Firestore writes per document path in the process that loads it, for
// `npm run bench:hall`. The emulator does not enforce Firestore's ~1 write per
// second per document, so the bench measures the rate instead.
//
// Loaded with `node --require` into the serving process (and required by the
// bench for the scheduled closer it runs itself). It wraps
// WriteBatch.prototype._commit of the @google-cloud/firestore the functions
// use: every write of the Admin SDK commits through it (set, create, update,
// delete, batches and transactions alike), so each committed operation is one
// write to its document path. Only commits that succeeded are counted (a
// transaction retried after contention counts once, when it lands). The counts,
// per path and per whole second of the commit's answer, are written to
// HALL_WRITE_TAP_FILE every second and when the process exits.
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

const file = process.env.HALL_WRITE_TAP_FILE;
const functionsDir = process.env.HALL_WRITE_TAP_FUNCTIONS ?? join(__dirname, '..', '..', 'functions');
if (file) {
  // Through the package's main module: its modules require each other in a cycle that only resolves from there.
  const { WriteBatch } = require(require.resolve('@google-cloud/firestore', { paths: [functionsDir] }));
  /** path → { second (epoch s) → writes } */
  const counts = new Map();
  let dirty = false;
  const original = WriteBatch.prototype._commit;
  WriteBatch.prototype._commit = function tappedCommit(...args) {
    const paths = (this._ops ?? []).map((op) => op.docPath);
    return original.apply(this, args).then((result) => {
      const second = Math.floor(Date.now() / 1000);
      for (const path of paths) {
        let perSecond = counts.get(path);
        if (!perSecond) counts.set(path, (perSecond = {}));
        perSecond[second] = (perSecond[second] ?? 0) + 1;
      }
      dirty = true;
      return result;
    });
  };
  const flush = () => {
    if (!dirty) return;
    dirty = false;
    writeFileSync(file, JSON.stringify(Object.fromEntries(counts)));
  };
  setInterval(flush, 1000).unref();
  process.on('exit', () => {
    dirty = true;
    flush();
  });
}
