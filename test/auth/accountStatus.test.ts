import assert from 'node:assert/strict';
import { accountVerdict, needsAccountCheck, type AccountFacts } from '../../functions/src/auth/accountStatus';
import type { Principal } from '../../functions/src/auth/principal';

const admin: Principal = {
  uid: 'u1',
  email: null,
  role: 'client_admin',
  clientId: 'acme',
  guest: false,
  authTime: 1_000,
};
const facts = (changes: Partial<AccountFacts> = {}): AccountFacts => ({
  exists: true,
  disabled: false,
  validAfterMs: null,
  claims: { role: 'client_admin', client_id: 'acme' },
  ...changes,
});

describe('accountVerdict', () => {
  it('accepts an account that still matches its token', () => assert.equal(accountVerdict(facts(), admin), null));
  it('accepts a token issued after the last revocation', () =>
    assert.equal(accountVerdict(facts({ validAfterMs: 999_000 }), admin), null));
  it('refuses a deleted account as revoked', () =>
    assert.equal(accountVerdict(facts({ exists: false }), admin), 'revoked'));
  it('refuses a disabled account as disabled', () =>
    assert.equal(accountVerdict(facts({ disabled: true }), admin), 'disabled'));
  it('refuses a token issued before the last revocation', () =>
    assert.equal(accountVerdict(facts({ validAfterMs: 1_000_001 }), admin), 'revoked'));
  it('refuses a token whose role the account no longer has', () =>
    assert.equal(accountVerdict(facts({ claims: { role: 'student', client_id: 'acme' } }), admin), 'revoked'));
  it('refuses a token whose organization the account no longer has', () =>
    assert.equal(accountVerdict(facts({ claims: { role: 'client_admin', client_id: 'globex' } }), admin), 'revoked'));
});

describe('needsAccountCheck', () => {
  it('re-checks admins only', () => {
    assert.equal(needsAccountCheck(admin), true);
    assert.equal(needsAccountCheck({ ...admin, role: 'super_admin', clientId: null }), true);
    assert.equal(needsAccountCheck({ ...admin, role: 'student' }), false);
    assert.equal(needsAccountCheck({ ...admin, role: 'guest', clientId: null, guest: true }), false);
  });
});
