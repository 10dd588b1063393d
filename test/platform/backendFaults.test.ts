import assert from 'node:assert/strict';
import { isBackendFault, isContention, isTokenProblem } from '../../functions/src/platform/backendFaults';

const withCode = (code: unknown) => Object.assign(new Error('x'), { code });

describe('isBackendFault', () => {
  for (const [name, code] of [
    ['UNAVAILABLE', 14],
    ['DEADLINE_EXCEEDED', 4],
    ['RESOURCE_EXHAUSTED', 8],
    ['ABORTED', 10],
    ['INTERNAL', 13],
  ] as const) {
    it(`counts Firestore ${name} as the backend failing`, () => assert.equal(isBackendFault(withCode(code)), true));
  }
  for (const [name, code] of [
    ['NOT_FOUND', 5],
    ['ALREADY_EXISTS', 6],
    ['FAILED_PRECONDITION', 9],
    ['INVALID_ARGUMENT', 3],
  ] as const) {
    it(`does not count Firestore ${name}, an answer about the request`, () =>
      assert.equal(isBackendFault(withCode(code)), false));
  }
  // The messages exactly as Firestore sends them: the emulator's after a lock wait timed out and the client
  // library re-sent the read, and production's for an expired transaction. The SDK's runner retries neither.
  for (const message of [
    '3 INVALID_ARGUMENT: Transaction is invalid or closed.',
    '3 INVALID_ARGUMENT: The referenced transaction has expired or is no longer valid.',
  ]) {
    it(`counts a transaction Firestore closed or expired under the caller (${message}) as the backend failing`, () => {
      assert.equal(isBackendFault(Object.assign(new Error(message), { code: 3 })), true);
    });
  }
  it('does not count any other INVALID_ARGUMENT, nor that message without the code', () => {
    assert.equal(
      isBackendFault(Object.assign(new Error('3 INVALID_ARGUMENT: too many index entries for entity'), { code: 3 })),
      false,
    );
    assert.equal(isBackendFault(new Error('Transaction is invalid or closed.')), false);
    assert.equal(
      isBackendFault(Object.assign(new Error('9 FAILED_PRECONDITION: Transaction is invalid or closed.'), { code: 9 })),
      false,
    );
  });
  it('counts Auth internal errors, quota and network failures', () => {
    for (const code of [
      'auth/internal-error',
      'auth/quota-exceeded',
      'app/network-error',
      'app/network-timeout',
      'ECONNREFUSED',
    ]) {
      assert.equal(isBackendFault(withCode(code)), true, code);
    }
  });
  it('does not count a plain bug', () => assert.equal(isBackendFault(new TypeError('x is undefined')), false));
});

describe('isTokenProblem', () => {
  it('is true for what Auth says about a token or its account', () => {
    for (const code of [
      'auth/argument-error',
      'auth/id-token-expired',
      'auth/id-token-revoked',
      'auth/user-disabled',
      'auth/user-not-found',
      'auth/invalid-id-token',
    ]) {
      assert.equal(isTokenProblem(withCode(code)), true, code);
    }
  });
  it('is false for Auth failing, so such a failure is never counted against the caller', () => {
    for (const code of ['auth/internal-error', 'app/network-error', undefined])
      assert.equal(isTokenProblem(withCode(code)), false, String(code));
  });
});

describe('isContention', () => {
  it('is true for a transaction that lost to contention: ABORTED, or expired or closed under it', () => {
    assert.equal(isContention(withCode(10)), true);
    assert.equal(
      isContention(Object.assign(new Error('3 INVALID_ARGUMENT: Transaction is invalid or closed'), { code: 3 })),
      true,
    );
  });
  it('is false for an outage and for a request Firestore refused', () => {
    for (const code of [14, 4, 3, 'auth/internal-error', undefined])
      assert.equal(isContention(withCode(code)), false, String(code));
  });
});
