import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AUTH_HOST } from '../support/env';
import { get } from '../support/http';

/** A Content-Security-Policy as directive → its sources, in order. */
function parsePolicy(header: string | null | undefined): Map<string, string[]> {
  assert.ok(header, 'no Content-Security-Policy header');
  return new Map(
    header
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name, sources]),
  );
}

// firebase.json itself: the policy production serves.
const production = JSON.parse(readFileSync(join(__dirname, '..', '..', 'firebase.json'), 'utf8'));
const productionPolicy = (): string => {
  const values = production.hosting.headers
    .flatMap((entry: { headers: Array<{ key: string; value: string }> }) => entry.headers)
    .filter((header: { key: string }) => header.key === 'Content-Security-Policy')
    .map((header: { value: string }) => header.value);
  assert.equal(values.length, 1, 'one Content-Security-Policy in firebase.json');
  return values[0];
};

const FIREBASE_AUTH = [
  'https://identitytoolkit.googleapis.com',
  'https://securetoken.googleapis.com',
  'https://www.googleapis.com',
];
// The sign-in page, an admin page, a taker's page (every route is index.html) and the API reference.
const PAGES = ['/', '/admin/tests', '/attempts/some-attempt', '/docs'];

describe('Hosting: the security headers of the pages', () => {
  it("firebase.json allows scripts, styles and frames of our own origin only (and Firebase Auth's popup frame and its loader), connections to it and to Firebase Auth, and no local address", () => {
    const text = productionPolicy();
    const policy = parsePolicy(text);
    assert.deepEqual(policy.get('default-src'), ["'self'"]);
    // Google's loader of the frame the provider sign-in's popup answers through (Firebase Auth's popup flow),
    // and that frame on the project's auth domain.
    assert.deepEqual(policy.get('script-src'), ["'self'", 'https://apis.google.com']);
    assert.deepEqual(policy.get('frame-src'), ["'self'", 'https://*.firebaseapp.com']);
    assert.deepEqual(policy.get('style-src'), ["'self'"]);
    assert.deepEqual(policy.get('object-src'), ["'none'"]);
    assert.deepEqual(policy.get('base-uri'), ["'self'"]);
    // LTI deep linking returns the teacher's choice to the LMS as a form post (the spec's only way): to any https
    // origin, as the LMS is the school's; never http, never a script or a frame from there.
    assert.deepEqual(policy.get('form-action'), ["'self'", 'https:']);
    assert.deepEqual(policy.get('frame-ancestors'), ["'none'"]);
    assert.deepEqual(policy.get('connect-src'), ["'self'", ...FIREBASE_AUTH]);
    assert.doesNotMatch(text, /127\.0\.0\.1|localhost|unsafe-/);
  });

  for (const path of PAGES) {
    it(`${path}: the production policy plus exactly this run's Auth emulator, nosniff and a referrer of the origin only abroad`, async () => {
      const res = await get(path);
      assert.equal(res.status, 200, res.text.slice(0, 200));
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(res.headers.get('referrer-policy'), 'strict-origin-when-cross-origin');
      const served = parsePolicy(res.headers.get('content-security-policy'));
      const expected = parsePolicy(productionPolicy());
      expected.set('connect-src', [...expected.get('connect-src')!, `http://${AUTH_HOST}`]);
      expected.set('frame-src', [...expected.get('frame-src')!, `http://${AUTH_HOST}`]);
      assert.deepEqual(served, expected);
    });
  }

  // Hosting's headers apply to /api too (the emulator's replace the function's own of the same name);
  // the API's own, when reached without Hosting, are tested in test/http/securityHeaders.inProcess.test.ts.
  it('/api through Hosting: nosniff, and never framed', async () => {
    const res = await get('/api/health');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.deepEqual(parsePolicy(res.headers.get('content-security-policy')).get('frame-ancestors'), ["'none'"]);
  });
});
