import assert from 'node:assert/strict';
import {
  assertCanAuthorTests,
  assertCanReadTest,
  assertSameOrganizationReferences,
  testListScope,
  testViewFor,
  testVisibleTo,
} from '../../functions/src/auth/policy';
import type { Principal } from '../../functions/src/auth/principal';
import { ApiError } from '../../functions/src/shared/errors';

// The tests-and-share-codes section of the policy module, as pure functions.

const who = (role: Principal['role'], clientId: string | null = 'c1'): Principal => ({
  uid: `${role}-uid`,
  email: null,
  role,
  clientId: role === 'super_admin' || role === 'guest' ? null : clientId,
  guest: role === 'guest',
  authTime: 0,
});
const code = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (err) {
    return err instanceof ApiError ? err.code : String(err);
  }
};

describe('policy: tests and share codes', () => {
  it('lets Super Admins anywhere and Client Admins at home author tests; nobody else', () => {
    assert.equal(
      code(() => assertCanAuthorTests(who('super_admin'), 'c2')),
      undefined,
    );
    assert.equal(
      code(() => assertCanAuthorTests(who('client_admin'), 'c1')),
      undefined,
    );
    assert.equal(
      code(() => assertCanAuthorTests(who('client_admin'), 'c2')),
      'FORBIDDEN',
    );
    assert.equal(
      code(() => assertCanAuthorTests(who('student'), 'c1')),
      'FORBIDDEN',
    );
    assert.equal(
      code(() => assertCanAuthorTests(who('guest'), 'c1')),
      'FORBIDDEN',
    );
    assert.equal(
      code(() => assertCanAuthorTests(who(null), 'c1')),
      'FORBIDDEN',
    );
  });

  it('scopes a listing: a Student to published tests, refusing drafts and archived ones', () => {
    assert.deepEqual(testListScope(who('student'), {}), { clientId: 'c1', status: 'published', byClasses: true });
    assert.deepEqual(testListScope(who('student'), { status: 'published' }), {
      clientId: 'c1',
      status: 'published',
      byClasses: true,
    });
    assert.equal(
      code(() => testListScope(who('student'), { status: 'draft' })),
      'FORBIDDEN',
    );
    assert.deepEqual(testListScope(who('client_admin'), { status: 'draft' }), {
      clientId: 'c1',
      status: 'draft',
      byClasses: false,
    });
    assert.equal(
      code(() => testListScope(who('super_admin'), {})),
      'VALIDATION_ERROR',
    );
    assert.equal(
      code(() => testListScope(who('client_admin'), { client_id: 'c2' })),
      'FORBIDDEN',
    );
    assert.equal(
      code(() => testListScope(who('guest'), {})),
      'FORBIDDEN',
    );
  });

  it('shows authors every test, whole, and students published tests, without question ids', () => {
    assert.equal(testViewFor(who('super_admin')), 'author');
    assert.equal(testViewFor(who('client_admin')), 'author');
    assert.equal(testViewFor(who('student')), 'student');
    assert.equal(testVisibleTo(who('student'), { status: 'draft' }, []), false);
    assert.equal(testVisibleTo(who('student'), { status: 'archived' }, []), false);
    assert.equal(testVisibleTo(who('student'), { status: 'published' }, []), true);
    assert.equal(testVisibleTo(who('client_admin'), { status: 'draft' }, []), true);
    assert.equal(
      code(() => assertCanReadTest(who('student'), { clientId: 'c2' })),
      'FORBIDDEN',
    );
    assert.equal(
      code(() => assertCanReadTest(who('guest'), { clientId: 'c1' })),
      'FORBIDDEN',
    );
  });

  it('refuses a question or folder of another organization, naming it', () => {
    assert.equal(
      code(() => assertSameOrganizationReferences('c1', [{ field: 'question', id: 'q', clientId: 'c1' }])),
      undefined,
    );
    assert.throws(
      () => assertSameOrganizationReferences('c1', [{ field: 'question', id: 'q9', clientId: 'c2' }]),
      (err: ApiError) => err.code === 'FORBIDDEN' && err.message.includes('question q9'),
    );
  });
});
