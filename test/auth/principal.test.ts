import assert from 'node:assert/strict';
import { principalFromClaims } from '../../functions/src/auth/principal';

const base = { uid: 'u1', auth_time: 100, email: 'a@b.c' };

describe('principalFromClaims', () => {
  it('reads role and client_id from custom claims', () => {
    assert.deepEqual(principalFromClaims({ ...base, role: 'student', client_id: 'acme' }), {
      uid: 'u1',
      email: 'a@b.c',
      authTime: 100,
      role: 'student',
      clientId: 'acme',
      guest: false,
    });
  });
  it('makes an anonymous sign-in a Guest, whatever claims it carries', () => {
    const p = principalFromClaims({ ...base, role: 'super_admin', firebase: { sign_in_provider: 'anonymous' } });
    assert.equal(p.role, 'guest');
    assert.equal(p.guest, true);
    assert.equal(p.clientId, null);
  });
  it('gives a Super Admin no organization even if a client_id claim is present', () => {
    assert.equal(principalFromClaims({ ...base, role: 'super_admin', client_id: 'acme' }).clientId, null);
  });
  it('treats an unknown role as no role', () => {
    assert.equal(principalFromClaims({ ...base, role: 'owner', client_id: 'acme' }).role, null);
  });
  it('treats a tenant role without client_id as no role', () => {
    assert.equal(principalFromClaims({ ...base, role: 'client_admin' }).role, null);
  });
});
