import assert from 'node:assert/strict';
import {
  accessCodeMatches,
  canonicalAccessCode,
  hasAccessCode,
  hashAccessCode,
  hashedAccessCodeMatches,
  plainAccessCodeMatches,
} from '../../functions/src/sittingRules/accessCode';

// A test's access code: stored readable and compared ignoring case and
// surrounding spaces; a legacy salted scrypt hash still compares.

describe('accessCode: hashAccessCode', () => {
  it('stores a hash that is not the code, nor contains it', async () => {
    const stored = await hashAccessCode('open-sesame');
    assert.equal(stored.algorithm, 'scrypt');
    assert.notEqual(stored.hash, 'open-sesame');
    assert.ok(!JSON.stringify(stored).includes('open-sesame'), JSON.stringify(stored));
    assert.equal(Buffer.from(stored.hash, 'base64').length, 32);
  });

  it('salts every hash: the same code hashed twice gives two salts and two hashes', async () => {
    const [a, b] = await Promise.all([hashAccessCode('same-code'), hashAccessCode('same-code')]);
    assert.notEqual(a.salt, b.salt);
    assert.notEqual(a.hash, b.hash);
    assert.equal(Buffer.from(a.salt, 'base64').length, 16);
  });

  it('records its cost parameters beside the hash', async () => {
    const stored = await hashAccessCode('abcd');
    assert.deepEqual([stored.n, stored.r, stored.p], [16384, 8, 1]);
  });
});

describe('accessCode: hashedAccessCodeMatches', () => {
  it('matches the code it was made from (twice: the remembered success too)', async () => {
    const stored = await hashAccessCode('Room 12B');
    assert.equal(await hashedAccessCodeMatches(stored, 'Room 12B'), true);
    assert.equal(await hashedAccessCodeMatches(stored, 'Room 12B'), true);
  });

  it('refuses another code, a different case, and surrounding spaces', async () => {
    const stored = await hashAccessCode('Room 12B');
    assert.equal(await hashedAccessCodeMatches(stored, 'Room 12C'), false);
    assert.equal(await hashedAccessCodeMatches(stored, 'room 12b'), false);
    assert.equal(await hashedAccessCodeMatches(stored, ' Room 12B'), false);
  });

  it('refuses the code against the hash of another salt (a changed code)', async () => {
    const old = await hashAccessCode('first-code');
    assert.equal(await hashedAccessCodeMatches(old, 'first-code'), true);
    const changed = await hashAccessCode('second-code');
    assert.equal(await hashedAccessCodeMatches(changed, 'first-code'), false);
  });

  it('matches a code typed in another Unicode normalization form (NFD é against NFC é)', async () => {
    const nfc = 'caf\u00e9-42';
    const nfd = 'cafe\u0301-42';
    assert.notEqual(nfc, nfd);
    assert.equal(await hashedAccessCodeMatches(await hashAccessCode(nfc), nfd), true);
    assert.equal(await hashedAccessCodeMatches(await hashAccessCode(nfd), nfc), true);
  });
});

describe('accessCode: canonicalAccessCode', () => {
  it('compares codes in NFC, without surrounding spaces, in lower case', () => {
    assert.equal(canonicalAccessCode('  Room 12B\t'), 'room 12b');
    assert.equal(canonicalAccessCode('CAFE\u0301'), canonicalAccessCode('caf\u00e9'));
  });
});

describe('accessCode: plainAccessCodeMatches', () => {
  it('matches the code in any case and with spaces around it', () => {
    assert.equal(plainAccessCodeMatches('Room 12B', 'Room 12B'), true);
    assert.equal(plainAccessCodeMatches('Room 12B', 'room 12b'), true);
    assert.equal(plainAccessCodeMatches('Room 12B', '  ROOM 12B \n'), true);
  });

  it('refuses another code, and spaces inside it', () => {
    assert.equal(plainAccessCodeMatches('Room 12B', 'Room 12C'), false);
    assert.equal(plainAccessCodeMatches('Room 12B', 'Room12B'), false);
    assert.equal(plainAccessCodeMatches('Room 12B', ''), false);
  });
});

describe('accessCode: accessCodeMatches', () => {
  it('compares a readable code ignoring case and surrounding spaces', async () => {
    assert.equal(await accessCodeMatches({ access_code: 'Hall-B' }, ' hall-b '), true);
    assert.equal(await accessCodeMatches({ access_code: 'Hall-B' }, 'hall-c'), false);
  });

  it('prefers the readable code to a hash left beside it', async () => {
    const stored = { access_code: 'new-code', access_code_hash: await hashAccessCode('old-code') };
    assert.equal(await accessCodeMatches(stored, 'NEW-CODE'), true);
    assert.equal(await accessCodeMatches(stored, 'old-code'), false);
  });

  it('compares a legacy hash as typed, then without surrounding spaces; its case still matters', async () => {
    const stored = { access_code: null, access_code_hash: await hashAccessCode('Room 12B') };
    assert.equal(await accessCodeMatches(stored, 'Room 12B'), true);
    assert.equal(await accessCodeMatches(stored, '  Room 12B '), true);
    assert.equal(await accessCodeMatches(stored, 'room 12b'), false);
  });

  it('refuses every candidate for a test without a code', async () => {
    assert.equal(await accessCodeMatches({}, 'anything'), false);
  });
});

describe('accessCode: hasAccessCode', () => {
  it('is true for a readable code or a legacy hash, false for neither', async () => {
    assert.equal(hasAccessCode({ access_code: 'abcd' }), true);
    assert.equal(hasAccessCode({ access_code_hash: await hashAccessCode('abcd') }), true);
    assert.equal(hasAccessCode({ access_code: null, access_code_hash: null }), false);
    assert.equal(hasAccessCode({}), false);
  });
});
