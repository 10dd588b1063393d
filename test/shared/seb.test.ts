import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  malformedSebHeaders,
  publicUrl,
  sebAllows,
  sebHash,
  sebRefusal,
  sebRequired,
  withoutFragment,
} from '../../functions/src/shared/seb';

// The check itself, pure: the vector is computed here with node:crypto, not with the module under test.

const KEY = '0123456789abcdef'.repeat(4);
const URL = 'https://exams.example.org/api/attempts/c1.abc/answers?attempt_token=t';
const expected = createHash('sha256').update(`${URL}${KEY}`).digest('hex');
const keys = { config_keys: [KEY], browser_exam_keys: [] };

describe('sebHash', () => {
  it('is SHA-256 hex of the URL followed by the key, the fragment removed', () => {
    assert.equal(sebHash(URL, KEY), expected);
    assert.equal(sebHash(`${URL}#question-3`, KEY), expected);
    assert.equal(withoutFragment('https://a/b#c#d'), 'https://a/b');
  });
});

describe('sebAllows', () => {
  it('passes the Config Key hash of this URL, in either case', () => {
    assert.ok(sebAllows(keys, { url: URL, configKeyHash: expected, requestHash: undefined }));
    assert.ok(sebAllows(keys, { url: URL, configKeyHash: expected.toUpperCase(), requestHash: undefined }));
  });

  it('refuses another key, another URL, and a config key sent as the request hash', () => {
    const other = createHash('sha256')
      .update(`${URL}${'f'.repeat(64)}`)
      .digest('hex');
    assert.ok(!sebAllows(keys, { url: URL, configKeyHash: other, requestHash: undefined }));
    assert.ok(
      !sebAllows(keys, { url: URL.replace('answers', 'submit'), configKeyHash: expected, requestHash: undefined }),
    );
    assert.ok(!sebAllows(keys, { url: URL, configKeyHash: undefined, requestHash: expected }));
  });

  it('checks the request hash against the Browser Exam Keys', () => {
    const bek = { config_keys: [], browser_exam_keys: ['e'.repeat(64), KEY] };
    assert.ok(sebAllows(bek, { url: URL, configKeyHash: undefined, requestHash: expected }));
  });

  it('passes the hash of the page the request came from (SEB’s JavaScript API), and of no other page', () => {
    const page = 'https://exams.example.org/attempts/c1.abc';
    const pageHash = createHash('sha256').update(`${page}${KEY}`).digest('hex');
    const api = 'https://exams.example.org/api/attempts/c1.abc/answers';
    assert.ok(sebAllows(keys, { url: api, pageUrl: page, configKeyHash: pageHash, requestHash: undefined }));
    assert.ok(
      !sebAllows(keys, { url: api, pageUrl: `${page}/other`, configKeyHash: pageHash, requestHash: undefined }),
    );
    assert.ok(!sebAllows(keys, { url: api, configKeyHash: pageHash, requestHash: undefined }));
  });

  it('asks nothing without keys', () => {
    assert.equal(sebRequired({ config_keys: [], browser_exam_keys: [] }), false);
    assert.equal(sebRequired(null), false);
    assert.ok(sebAllows(undefined, { url: URL, configKeyHash: undefined, requestHash: undefined }));
  });
});

describe('sebRefusal', () => {
  it('is 403 without a header, 400 naming a header not 64 hex digits, null when it passes', () => {
    assert.equal(sebRefusal(keys, undefined)?.status, 403);
    assert.equal(
      sebRefusal(keys, { url: URL, configKeyHash: undefined, requestHash: undefined })?.message,
      'This test must be taken in Safe Exam Browser',
    );
    const short = sebRefusal(keys, { url: URL, configKeyHash: 'abc', requestHash: undefined });
    assert.equal(short?.status, 400);
    assert.deepEqual(
      short?.details?.map((d) => d.path),
      ['header.x-safeexambrowser-configkeyhash'],
    );
    assert.deepEqual(malformedSebHeaders({ configKeyHash: expected, requestHash: 'g'.repeat(64) }), [
      'x-safeexambrowser-requesthash',
    ]);
    assert.equal(sebRefusal(keys, { url: URL, configKeyHash: expected, requestHash: undefined }), null);
    assert.equal(sebRefusal(null, undefined), null);
  });
});

describe('publicUrl', () => {
  it('joins the public origin and the path with its query, once slashed', () => {
    assert.equal(
      publicUrl('https://exams.example.org/', '/api/attempts?x=1'),
      'https://exams.example.org/api/attempts?x=1',
    );
  });
});
