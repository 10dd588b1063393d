import assert from 'node:assert/strict';
import { isBackendFault, isTokenProblem } from '../../functions/src/platform/backendFaults';

const withCode = (code: unknown) => Object.assign(new Error('x'), { code });

describe('isBackendFault', () => {
  for (const [name, code] of [['UNAVAILABLE', 14], ['DEADLINE_EXCEEDED', 4], ['RESOURCE_EXHAUSTED', 8], ['ABORTED', 10], ['INTERNAL', 13]] as const) {
    it(`counts Firestore ${name} as the backend failing`, () => assert.equal(isBackendFault(withCode(code)), true));
  }
  for (const [name, code] of [['NOT_FOUND', 5], ['ALREADY_EXISTS', 6], ['FAILED_PRECONDITION', 9], ['INVALID_ARGUMENT', 3]] as const) {
    it(`does not count Firestore ${name}, an answer about the request`, () => assert.equal(isBackendFault(withCode(code)), false));
  }
  it('counts Auth internal errors, quota and network failures', () => {
    for (const code of ['auth/internal-error', 'auth/quota-exceeded', 'app/network-error', 'app/network-timeout', 'ECONNREFUSED']) {
      assert.equal(isBackendFault(withCode(code)), true, code);
    }
  });
  it('does not count a plain bug', () => assert.equal(isBackendFault(new TypeError('x is undefined')), false));
});

describe('isTokenProblem', () => {
  it('is true for what Auth says about a token or its account', () => {
    for (const code of ['auth/argument-error', 'auth/id-token-expired', 'auth/id-token-revoked', 'auth/user-disabled', 'auth/user-not-found', 'auth/invalid-id-token']) {
      assert.equal(isTokenProblem(withCode(code)), true, code);
    }
  });
  it('is false for Auth failing, so such a failure is never counted against the caller', () => {
    for (const code of ['auth/internal-error', 'app/network-error', undefined]) assert.equal(isTokenProblem(withCode(code)), false, String(code));
  });
});
