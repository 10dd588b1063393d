import assert from 'node:assert/strict';
import { showOnTerminal } from '../../../scripts/lib/emulatorOutput.mjs';

describe('showOnTerminal (what npm start shows of the emulators on the terminal)', () => {
  it('keeps a function’s error and firebase-tools’ own failures and warnings', () => {
    for (const line of [
      '>  {"severity":"ERROR","message":"Unhandled error","error":"boom"}',
      '>  {"severity":"CRITICAL","message":"out of memory"}',
      '✖  functions: Failed to load function definition from source',
      '⚠  functions: The Cloud Firestore emulator is not running, so calls to Firestore will affect production.',
      '!!  functions: Your function timed out after ~60s.',
    ])
      assert.equal(showOnTerminal(line), true, line);
  });

  it('drops the per-request log, worker starts, lesser function logs and known harmless notices', () => {
    for (const line of [
      '[hosting] Rewriting /api/me to http://127.0.0.1:5001/demo-exam/us-central1/api for local Function api',
      'i  functions: Beginning execution of "us-central1-api"',
      'i  functions: Finished "us-central1-api" in 23.4ms',
      '>  {"severity":"WARNING","message":"rate limit counts could not be flushed"}',
      '>  {"severity":"INFO","message":"request"}',
      '⚠  functions: Your requested "node" version "22" doesn\'t match your global version "20". Using node@20 from host.',
      '⚠  emulators: firebase-tools will drop support for Java version < 21 soon in firebase-tools@15.',
      '⚠  firestore: Env variable override detected. Using firestore emulator at /work/main/.emulators/firestore-emulator-launcher.jar',
      '⚠  emulators: The Emulator UI is not starting because none of the running emulators have a UI component.',
      '✔  functions: Loaded functions definitions from source: api, closeOverdueAttempts',
    ])
      assert.equal(showOnTerminal(line), false, line);
  });
});
