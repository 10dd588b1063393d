import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { AUTH_CALLS, waitOnDeadline } from '../../functions/src/firestore/callWatch';
import { STALL_MS, sweep, watchRequest } from '../../functions/src/platform/backendDeadline';
import { offTheDeadline, runInRequestScope } from '../../functions/src/platform/requestScope';

// What the deadline does with each backend call: which Auth calls it waits for
// (a change the reply reports) and which it answers 503 when they stall.

/** Every method of the functions' own copy of the Admin SDK's Auth (BaseAuth, where the calls live). */
function adminAuthMethods(): string[] {
  const { BaseAuth } = createRequire(join(__dirname, '../../functions/package.json'))('firebase-admin/auth') as {
    BaseAuth: { prototype: object };
  };
  return Object.getOwnPropertyNames(BaseAuth.prototype).filter(
    (name) =>
      name !== 'constructor' && typeof Object.getOwnPropertyDescriptor(BaseAuth.prototype, name)?.value === 'function',
  );
}

describe('the Auth calls on a request’s deadline', () => {
  it('names every method of the installed Admin SDK’s Auth, so none escapes the deadline', () => {
    assert.deepEqual(adminAuthMethods().sort(), Object.keys(AUTH_CALLS).sort());
  });

  const cases: Array<[keyof typeof AUTH_CALLS, 'read' | 'decisive', string]> = [
    ['verifyIdToken', 'read', 'a token checked'],
    ['verifyDecodedJWTNotRevokedOrDisabled', 'read', 'verifyIdToken’s revocation check'],
    ['getUser', 'read', 'the revocation check of a write, an admin’s re-check'],
    ['getUsers', 'read', 'a roster’s emails looked up'],
    ['generatePasswordResetLink', 'read', 'an invitation link: never delivered when answered 503'],
    ['createCustomToken', 'read', 'an LTI launch’s token: never delivered when answered 503'],
    ['createUser', 'decisive', 'an account made'],
    ['updateUser', 'decisive', 'an account changed'],
    ['setCustomUserClaims', 'decisive', 'a role given'],
    ['revokeRefreshTokens', 'decisive', 'sessions ended'],
    ['deleteUser', 'decisive', 'an account deleted'],
    ['deleteUsers', 'decisive', 'a roster’s accounts taken back'],
  ];
  for (const [method, kind, what] of cases) {
    it(`${method} (${what}) is ${kind === 'read' ? 'answered 503 when it stalls' : 'waited for while in flight'}`, () => {
      assert.equal(AUTH_CALLS[method], kind);
    });
  }
});

describe('work off a request’s deadline, and a wait put back on it', () => {
  const inRequest = (work: () => void) => {
    const answers: number[] = [];
    runInRequestScope(
      'test',
      work,
      watchRequest((stalledMs) => {
        answers.push(stalledMs);
        return 'answered';
      }),
    );
    return answers;
  };
  const never = () => new Promise<never>(() => {});

  it('answers a request at its deadline when a shared flush it waits for stalls', () => {
    const answers = inRequest(() => void waitOnDeadline(never()));
    sweep(performance.now() + STALL_MS + 1);
    assert.equal(answers.length, 1);
  });

  it('does not answer a request for a write it started off its deadline (a login record) that stalls', () => {
    const answers = inRequest(() => void offTheDeadline(() => waitOnDeadline(never())));
    sweep(performance.now() + STALL_MS + 1);
    assert.deepEqual(answers, []);
  });
});
