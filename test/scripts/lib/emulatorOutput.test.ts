import assert from 'node:assert/strict';
import { showAfterBanner } from '../../../scripts/lib/emulatorOutput.mjs';

describe('showAfterBanner (what npm start still shows of the emulators once its banner is out)', () => {
  it('keeps a function’s error and firebase-tools’ own failures and warnings', () => {
    for (const line of [
      '>  {"severity":"ERROR","message":"Unhandled error","error":"boom"}',
      '>  {"severity":"CRITICAL","message":"out of memory"}',
      '✖  functions: Failed to load function definition from source',
      '⚠  functions: The Cloud Firestore emulator is not running, so calls to Firestore will affect production.',
      '!!  functions: Your function timed out after ~60s.',
    ])
      assert.equal(showAfterBanner(line), true, line);
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
    ])
      assert.equal(showAfterBanner(line), false, line);
  });
});
