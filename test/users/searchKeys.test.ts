import assert from 'node:assert/strict';
import { newProfile } from '../../functions/src/users/profiles';
import { foldForSearch, searchKeysOf } from '../../functions/src/users/searchKeys';

describe('foldForSearch', () => {
  it('puts text in lower case', () => {
    assert.equal(foldForSearch('Ada.LOVELACE@Example.org'), 'ada.lovelace@example.org');
  });
  it('drops accents and takes compatibility forms apart', () => {
    assert.equal(foldForSearch('Zoë Ångström'), 'zoe angstrom');
    assert.equal(foldForSearch('ﬁona'), 'fiona');
  });
  it('squeezes and trims spaces', () => {
    assert.equal(foldForSearch('  Ada \t  Lovelace '), 'ada lovelace');
  });
  it('leaves nothing of combining marks alone', () => {
    assert.equal(foldForSearch('\u0301\u0308'), '');
  });
});

describe('searchKeysOf', () => {
  it('folds the email and the name, and keeps null as null', () => {
    assert.deepEqual(searchKeysOf({ email: 'A@B.C', display_name: 'Émile' }), {
      email_lower: 'a@b.c',
      name_lower: 'emile',
    });
    assert.deepEqual(searchKeysOf({ email: null, display_name: null }), { email_lower: null, name_lower: null });
  });
  it('is written into every new profile', () => {
    const profile = newProfile(
      { uid: 'u', email: 'Ada@X.org', display_name: 'Ada Lovelace', role: 'student', client_id: 'c' },
      '2025-01-01T00:00:00.000Z',
    );
    assert.equal(profile.email_lower, 'ada@x.org');
    assert.equal(profile.name_lower, 'ada lovelace');
  });
});
