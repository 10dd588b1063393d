import assert from 'node:assert/strict';
import { lookup } from 'node:dns/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { ApiError } from '../../functions/src/shared/errors';
import { forgetKeySets } from '../../functions/src/lti/keySets';
import { issuedAtRefusal, MAX_ID_TOKEN_LIFETIME_S, verifyIdToken } from '../../functions/src/lti/verify';
import { withoutLoopback } from './loopbackEnv';

describe('verifyIdToken', () => {
  it('never fetches a JWKS from a name that resolves to a private address outside the emulators (400 jwks_invalid)', async function () {
    const name = hostname();
    const found = await lookup(name, { all: true }).catch(() => []);
    if (!found.some((a) => a.address.startsWith('127.'))) this.skip();
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256' };
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const issuer = 'https://lms.example';
    const token = await new SignJWT({ nonce: 'n' })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(issuer)
      .setAudience('tool')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    forgetKeySets();
    try {
      const err = await withoutLoopback(() =>
        verifyIdToken(token, { issuer, platform_client_id: 'tool', jwks_url: `http://${name}:${port}/jwks` }, 'n').then(
          () => undefined,
          (e: unknown) => e,
        ),
      );
      assert.ok(err instanceof ApiError, String(err));
      assert.equal(err.status, 400);
      assert.equal(err.details?.[0]?.reason, 'jwks_invalid');
      assert.equal(hits, 0);
    } finally {
      forgetKeySets();
      server.close();
    }
  });
});

describe('issuedAtRefusal', () => {
  const now = 1_800_000_000;
  const cases: Array<[string, { iat?: unknown; exp?: unknown }, string | null]> = [
    ['a token issued now for five minutes', { iat: now, exp: now + 300 }, null],
    ['iat within the minute of clock skew ahead', { iat: now + 60, exp: now + 360 }, null],
    ['iat beyond the minute of clock skew', { iat: now + 61, exp: now + 361 }, 'issued_in_future'],
    ['iat a year ahead, exp 400 days ahead', { iat: now + 365 * 86_400, exp: now + 400 * 86_400 }, 'issued_in_future'],
    ['a lifetime of exactly an hour', { iat: now - 100, exp: now - 100 + MAX_ID_TOKEN_LIFETIME_S }, null],
    [
      'a lifetime of an hour and a second',
      { iat: now - 100, exp: now - 99 + MAX_ID_TOKEN_LIFETIME_S },
      'lifetime_too_long',
    ],
    ['an old iat with an exp far ahead', { iat: now - 86_400, exp: now + 86_400 }, 'lifetime_too_long'],
    ['no iat', { exp: now + 300 }, 'malformed'],
    ['an iat that is not a number', { iat: 'now', exp: now + 300 }, 'malformed'],
  ];
  for (const [what, times, refusal] of cases)
    it(`${refusal ?? 'takes'}: ${what}`, () => assert.equal(issuedAtRefusal(times, now), refusal));
});
