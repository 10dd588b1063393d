import assert from 'node:assert/strict';
import { accessCodeMatches, hashAccessCode } from '../../functions/src/sittingRules/accessCode';

// A test's access code as stored: a salted scrypt hash, never the code.

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

describe('accessCode: accessCodeMatches', () => {
  it('matches the code it was made from (twice: the remembered success too)', async () => {
    const stored = await hashAccessCode('Room 12B');
    assert.equal(await accessCodeMatches(stored, 'Room 12B'), true);
    assert.equal(await accessCodeMatches(stored, 'Room 12B'), true);
  });

  it('refuses another code, a different case, and surrounding spaces', async () => {
    const stored = await hashAccessCode('Room 12B');
    assert.equal(await accessCodeMatches(stored, 'Room 12C'), false);
    assert.equal(await accessCodeMatches(stored, 'room 12b'), false);
    assert.equal(await accessCodeMatches(stored, ' Room 12B'), false);
  });

  it('refuses the code against the hash of another salt (a changed code)', async () => {
    const old = await hashAccessCode('first-code');
    assert.equal(await accessCodeMatches(old, 'first-code'), true);
    const changed = await hashAccessCode('second-code');
    assert.equal(await accessCodeMatches(changed, 'first-code'), false);
  });

  it('matches a code typed in another Unicode normalization form (NFD é against NFC é)', async () => {
    const nfc = 'caf\u00e9-42';
    const nfd = 'cafe\u0301-42';
    assert.notEqual(nfc, nfd);
    assert.equal(await accessCodeMatches(await hashAccessCode(nfc), nfd), true);
    assert.equal(await accessCodeMatches(await hashAccessCode(nfd), nfc), true);
  });
});
