import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  malformedSebHeaders,
  publicUrl,
  sebAllows,
  sebHash,
  sebPageFits,
  type SebAction,
  sebRefusal,
  sebRequired,
  withoutFragment,
} from '../../functions/src/shared/seb';

// The check itself, pure: the vector is computed here with node:crypto, not with the module under test.

const KEY = '0123456789abcdef'.repeat(4);
const URL = 'https://exams.example.org/api/attempts/c1.abc/answers?attempt_token=t';
const expected = createHash('sha256').update(`${URL}${KEY}`).digest('hex');
const keys = { config_keys: [KEY], browser_exam_keys: [] };
const ATTEMPT = { attemptId: 'c1.abc' };

describe('sebHash', () => {
  it('is SHA-256 hex of the URL followed by the key, the fragment removed', () => {
    assert.equal(sebHash(URL, KEY), expected);
    assert.equal(sebHash(`${URL}#question-3`, KEY), expected);
    assert.equal(withoutFragment('https://a/b#c#d'), 'https://a/b');
  });
});

describe('sebAllows', () => {
  it('passes the Config Key hash of this URL, in either case', () => {
    assert.ok(sebAllows(keys, { url: URL, configKeyHash: expected, requestHash: undefined }, ATTEMPT));
    assert.ok(sebAllows(keys, { url: URL, configKeyHash: expected.toUpperCase(), requestHash: undefined }, ATTEMPT));
  });

  it('refuses another key, another URL, and a config key sent as the request hash', () => {
    const other = createHash('sha256')
      .update(`${URL}${'f'.repeat(64)}`)
      .digest('hex');
    assert.ok(!sebAllows(keys, { url: URL, configKeyHash: other, requestHash: undefined }, ATTEMPT));
    assert.ok(
      !sebAllows(
        keys,
        { url: URL.replace('answers', 'submit'), configKeyHash: expected, requestHash: undefined },
        ATTEMPT,
      ),
    );
    assert.ok(!sebAllows(keys, { url: URL, configKeyHash: undefined, requestHash: expected }, ATTEMPT));
  });

  it('checks the request hash against the Browser Exam Keys', () => {
    const bek = { config_keys: [], browser_exam_keys: ['e'.repeat(64), KEY] };
    assert.ok(sebAllows(bek, { url: URL, configKeyHash: undefined, requestHash: expected }, ATTEMPT));
  });

  it('passes the hash of the page the request came from (SEB’s JavaScript API), and of no other page', () => {
    const page = 'https://exams.example.org/attempts/c1.abc';
    const pageHash = createHash('sha256').update(`${page}${KEY}`).digest('hex');
    const api = 'https://exams.example.org/api/attempts/c1.abc/answers';
    const own = { attemptId: 'c1.abc' };
    assert.ok(sebAllows(keys, { url: api, pageUrl: page, configKeyHash: pageHash, requestHash: undefined }, own));
    assert.ok(
      !sebAllows(keys, { url: api, pageUrl: `${page}/other`, configKeyHash: pageHash, requestHash: undefined }, own),
    );
    assert.ok(!sebAllows(keys, { url: api, configKeyHash: pageHash, requestHash: undefined }, own));
  });
  it('asks nothing without keys', () => {
    assert.equal(sebRequired({ config_keys: [], browser_exam_keys: [] }), false);
    assert.equal(sebRequired(null), false);
    assert.ok(sebAllows(undefined, { url: URL, configKeyHash: undefined, requestHash: undefined }, ATTEMPT));
  });
});

describe('sebPageFits: the pages whose hash an action accepts', () => {
  const ORIGIN = 'https://exams.example.org';
  const START: SebAction = { start: true };
  const ON_A: SebAction = { attemptId: 'c1.abc' };
  const api = (path: string) => `${ORIGIN}/api${path}`;
  // [what, action, request URL, page URL, accepted]
  const cases: Array<[string, SebAction, string, string, boolean]> = [
    ['the home page, for a start', START, api('/attempts'), `${ORIGIN}/`, true],
    ['the LMS launch page, for a start', START, api('/attempts'), `${ORIGIN}/lti`, true],
    ['the home page with a query, for a start', START, api('/attempts'), `${ORIGIN}/?from=list`, true],
    ['an attempt’s page, for a start', START, api('/attempts'), `${ORIGIN}/attempts/c1.abc`, false],
    ['an admin page of the test, for a start', START, api('/attempts'), `${ORIGIN}/admin/tests/t1`, false],
    ['the home page of another origin, for a start', START, api('/attempts'), 'https://elsewhere.example/', false],
    ['the attempt’s own page', ON_A, api('/attempts/c1.abc/answers'), `${ORIGIN}/attempts/c1.abc`, true],
    [
      'its own page with a query and a fragment',
      ON_A,
      api('/attempts/c1.abc/submit'),
      `${ORIGIN}/attempts/c1.abc?q=2#x`,
      true,
    ],
    ['its own page percent-encoded', ON_A, api('/attempts/c1.abc/events'), `${ORIGIN}/attempts/c1%2Eabc`, true],
    ['the home page, for an attempt', ON_A, api('/attempts/c1.abc/answers'), `${ORIGIN}/`, false],
    ['the LMS launch page, for an attempt', ON_A, api('/attempts/c1.abc/answers'), `${ORIGIN}/lti`, false],
    ['another attempt’s page', ON_A, api('/attempts/c1.abc/answers'), `${ORIGIN}/attempts/c1.other`, false],
    ['a page below its own', ON_A, api('/attempts/c1.abc/answers'), `${ORIGIN}/attempts/c1.abc/x`, false],
    ['its own page with a trailing slash', ON_A, api('/attempts/c1.abc/answers'), `${ORIGIN}/attempts/c1.abc/`, false],
    [
      'another attempt’s page through ..',
      ON_A,
      api('/attempts/c1.abc/answers'),
      `${ORIGIN}/attempts/c1.abc/../c1.other`,
      false,
    ],
    [
      'its own page reached through ..',
      ON_A,
      api('/attempts/c1.abc/answers'),
      `${ORIGIN}/attempts/c1.other/../c1.abc`,
      true,
    ],
    [
      'an encoded slash and ..',
      ON_A,
      api('/attempts/c1.abc/answers'),
      `${ORIGIN}/attempts/c1.abc%2F..%2Fc1.other`,
      false,
    ],
    ['an encoded slash before its id', ON_A, api('/attempts/c1.abc/answers'), `${ORIGIN}/attempts/x%2Fc1.abc`, false],
    [
      'its own page on another origin',
      ON_A,
      api('/attempts/c1.abc/answers'),
      'https://elsewhere.example/attempts/c1.abc',
      false,
    ],
    ['its own page on another port', ON_A, api('/attempts/c1.abc/answers'), `${ORIGIN}:8443/attempts/c1.abc`, false],
    [
      'its own page over http',
      ON_A,
      api('/attempts/c1.abc/answers'),
      'http://exams.example.org/attempts/c1.abc',
      false,
    ],
    ['not a URL', ON_A, api('/attempts/c1.abc/answers'), '/attempts/c1.abc', false],
    ['a malformed escape', ON_A, api('/attempts/c1.abc/answers'), `${ORIGIN}/attempts/%E0%A4%A`, false],
  ];
  for (const [what, action, url, page, accepted] of cases)
    it(`${accepted ? 'accepts' : 'refuses'} ${what}`, () => assert.equal(sebPageFits(action, url, page), accepted));

  it('accepts a start page’s hash for a start only, and an attempt page’s for that attempt only', () => {
    const hashOf = (page: string) => createHash('sha256').update(`${page}${KEY}`).digest('hex');
    const request = (url: string, page: string) => ({
      url,
      pageUrl: page,
      configKeyHash: hashOf(page),
      requestHash: undefined,
    });
    const home = `${ORIGIN}/`;
    const pageOfA = `${ORIGIN}/attempts/c1.abc`;
    assert.ok(sebAllows(keys, request(api('/attempts'), home), START));
    assert.ok(!sebAllows(keys, request(api('/attempts/c1.abc/submit'), home), ON_A));
    assert.ok(sebAllows(keys, request(api('/attempts/c1.abc/submit'), pageOfA), ON_A));
    assert.ok(!sebAllows(keys, request(api('/attempts/c1.other/submit'), pageOfA), { attemptId: 'c1.other' }));
    assert.ok(!sebAllows(keys, request(api('/attempts'), pageOfA), START));
  });
});

describe('sebRefusal', () => {
  it('is 403 without a header, 400 naming a header not 64 hex digits, null when it passes', () => {
    assert.equal(sebRefusal(keys, undefined, ATTEMPT)?.status, 403);
    assert.equal(
      sebRefusal(keys, { url: URL, configKeyHash: undefined, requestHash: undefined }, ATTEMPT)?.message,
      'This test must be taken in Safe Exam Browser',
    );
    const short = sebRefusal(keys, { url: URL, configKeyHash: 'abc', requestHash: undefined }, ATTEMPT);
    assert.equal(short?.status, 400);
    assert.deepEqual(
      short?.details?.map((d) => d.path),
      ['header.x-safeexambrowser-configkeyhash'],
    );
    assert.deepEqual(malformedSebHeaders({ configKeyHash: expected, requestHash: 'g'.repeat(64) }), [
      'x-safeexambrowser-requesthash',
    ]);
    assert.equal(sebRefusal(keys, { url: URL, configKeyHash: expected, requestHash: undefined }, ATTEMPT), null);
    assert.equal(sebRefusal(null, undefined, ATTEMPT), null);
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
