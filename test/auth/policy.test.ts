import assert from 'node:assert/strict';
import { assertRole, assertTenantAccess, tenantScope } from '../../functions/src/auth/policy';
import type { Principal } from '../../functions/src/auth/principal';
import { ApiError } from '../../functions/src/http/errors';

const principal = (role: Principal['role'], clientId: string | null = null): Principal => ({
  uid: 'u1', email: null, role, clientId, guest: role === 'guest', authTime: 0,
});
const superAdmin = principal('super_admin');
const admin = principal('client_admin', 'acme');
const student = principal('student', 'acme');

const throwsCode = (fn: () => unknown, code: string) =>
  assert.throws(fn, (err: unknown) => err instanceof ApiError && err.code === code);

describe('policy: assertRole', () => {
  it('admits a role on the list', () => assert.doesNotThrow(() => assertRole(admin, ['client_admin'])));
  it('refuses a role not on the list with FORBIDDEN', () => throwsCode(() => assertRole(student, ['client_admin']), 'FORBIDDEN'));
  it('refuses a user with no role, saying so', () =>
    assert.throws(() => assertRole(principal(null), ['student']), /no role/));
  it('refuses a guest where guests are not listed', () => throwsCode(() => assertRole(principal('guest'), ['student']), 'FORBIDDEN'));
});

describe('policy: tenantScope', () => {
  it('gives a Client Admin its own organization when none is named', () => assert.equal(tenantScope(admin, undefined), 'acme'));
  it('accepts a Student naming its own organization', () => assert.equal(tenantScope(student, 'acme'), 'acme'));
  it('refuses naming another organization with FORBIDDEN', () => throwsCode(() => tenantScope(admin, 'globex'), 'FORBIDDEN'));
  it('requires a Super Admin to name the organization', () => throwsCode(() => tenantScope(superAdmin, undefined), 'VALIDATION_ERROR'));
  it('lets a Super Admin name any organization', () => assert.equal(tenantScope(superAdmin, 'globex'), 'globex'));
  it('lets a Super Admin omit it where the route allows', () =>
    assert.equal(tenantScope(superAdmin, undefined, { optionalForSuperAdmin: true }), undefined));
  it('refuses a guest, who has no organization', () => throwsCode(() => tenantScope(principal('guest'), undefined), 'FORBIDDEN'));
});

describe('policy: assertTenantAccess', () => {
  it('admits the owner organization', () => assert.doesNotThrow(() => assertTenantAccess(admin, 'acme')));
  it('refuses another organization', () => throwsCode(() => assertTenantAccess(student, 'globex'), 'FORBIDDEN'));
  it('admits a Super Admin anywhere', () => assert.doesNotThrow(() => assertTenantAccess(superAdmin, 'globex')));
});
