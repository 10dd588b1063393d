// @ts-check
// The floor of `npm run bench:coldstart`: the least a function can do for a
// saved answer, written the plain way, and served like `api` (the Functions
// Framework loading a firebase-functions `onRequest` export). It verifies the
// caller's ID token with firebase-admin and updates one Firestore document,
// nothing else: no Express app, no validation, no rate limit, no audit.
//
// Its modules come from functions/node_modules, the same copies the `api`
// function loads, so the two load the same code for what they share.
const { createRequire } = require('node:module');
const { join } = require('node:path');

const fromFunctions = createRequire(join(__dirname, '..', '..', 'functions', 'package.json'));
const { onRequest } = fromFunctions('firebase-functions/v2/https');
const { getApps, initializeApp } = fromFunctions('firebase-admin/app');
const { getAuth } = fromFunctions('firebase-admin/auth');
const { getFirestore } = fromFunctions('firebase-admin/firestore');

if (getApps().length === 0) initializeApp();

exports.floor = onRequest({ cors: false }, async (req, res) => {
  const match = /^Bearer (.+)$/.exec(req.get('authorization') ?? '');
  if (!match) {
    res.status(401).json({ error: 'no token' });
    return;
  }
  let uid;
  try {
    uid = (await getAuth().verifyIdToken(match[1])).uid;
  } catch {
    res.status(401).json({ error: 'bad token' });
    return;
  }
  const answer = typeof req.body?.student_answer === 'string' ? req.body.student_answer : null;
  const savedAt = new Date().toISOString();
  await getFirestore().doc(`bench_floor/${uid}`).set({ answer, saved_at: savedAt }, { merge: true });
  res.status(200).json({ saved_at: savedAt });
});
