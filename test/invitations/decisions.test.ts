import assert from 'node:assert/strict';
import {
  canSignIn,
  expiryOf,
  invitationState,
  REDEEM_HOLD_MS,
  redeemRefusal,
} from '../../functions/src/invitations/decisions';
import { digestOf, hasSecretShape, invitationUrl, newSecret } from '../../functions/src/invitations/tokens';

// Pure: what an invitation is at a moment, whether it may be redeemed, and its secret's form.

const NOW = new Date('2026-12-07T10:00:00.000Z');
const later = (ms: number) => new Date(NOW.getTime() + ms).toISOString();

describe('invitationState', () => {
  const cases: Array<[string, Parameters<typeof invitationState>[0], string]> = [
    ['a live link before its expiry is live', { status: 'live', expires_at: later(1000) }, 'live'],
    ['a live link at its expiry is expired', { status: 'live', expires_at: later(0) }, 'expired'],
    ['a used link stays used, even past its expiry', { status: 'used', expires_at: later(-1000) }, 'used'],
    ['a revoked link stays revoked', { status: 'revoked', expires_at: later(1000) }, 'revoked'],
    [
      'a link held by a redemption is redeeming while the hold lasts',
      { status: 'redeeming', expires_at: later(86_400_000), held_until: later(REDEEM_HOLD_MS) },
      'redeeming',
    ],
    [
      'a hold that lapsed (its redemption died) leaves the link live',
      { status: 'redeeming', expires_at: later(86_400_000), held_until: later(-1) },
      'live',
    ],
    [
      'a held link past its expiry is expired',
      { status: 'redeeming', expires_at: later(-1), held_until: later(1000) },
      'expired',
    ],
  ];
  for (const [what, inv, expected] of cases) it(what, () => assert.equal(invitationState(inv, NOW), expected));
});

describe('redeemRefusal', () => {
  const active = { exists: true, disabled: false };
  const cases: Array<[string, Parameters<typeof redeemRefusal>, string | null]> = [
    ['a live link of an active account of an active organization may be redeemed', ['live', active, true], null],
    ['an expired link is refused as expired', ['expired', active, true], 'expired'],
    ['a used link is refused as used', ['used', active, true], 'used'],
    ['a revoked link is refused as revoked', ['revoked', active, true], 'revoked'],
    ['a link another redemption holds is refused as redeeming', ['redeeming', active, true], 'redeeming'],
    ['a disabled account cannot redeem', ['live', { exists: true, disabled: true }, true], 'account_disabled'],
    ['a deleted account cannot redeem', ['live', { exists: false, disabled: true }, true], 'account_disabled'],
    ['a deactivated organization’s student cannot redeem', ['live', active, false], 'organization_inactive'],
    ['the link’s own state is said first', ['used', { exists: true, disabled: true }, false], 'used'],
  ];
  for (const [what, args, expected] of cases) it(what, () => assert.equal(redeemRefusal(...args), expected));
});

describe('expiryOf', () => {
  it('is the organization’s number of days after issue', () => {
    assert.equal(expiryOf(NOW, 7), '2026-12-14T10:00:00.000Z');
    assert.equal(expiryOf(NOW, 1), '2026-12-08T10:00:00.000Z');
  });
});

describe('canSignIn', () => {
  const none = { providerData: [], metadata: { lastRefreshTime: null } };
  const cases: Array<[string, Parameters<typeof canSignIn>[0], boolean]> = [
    ['a roster’s student with no password, no provider, never signed in cannot', none, false],
    ['an account with a password can', { ...none, providerData: [{ providerId: 'password' }] }, true],
    ['an account linked to Google can', { ...none, providerData: [{ providerId: 'google.com' }] }, true],
    ['an account linked to Microsoft can', { ...none, providerData: [{ providerId: 'microsoft.com' }] }, true],
    ['an account that signed in before can', { ...none, metadata: { lastRefreshTime: NOW.toUTCString() } }, true],
    [
      'a roster’s student stamped with a lastSignInTime at creation (the Auth emulator does), never active, cannot',
      { ...none, metadata: { lastSignInTime: NOW.toUTCString(), lastRefreshTime: null } } as Parameters<
        typeof canSignIn
      >[0],
      false,
    ],
  ];
  for (const [what, record, expected] of cases) it(what, () => assert.equal(canSignIn(record), expected));
});

describe('invitation secrets', () => {
  it('are 32 random bytes in base64url (43 characters), different each time', () => {
    const a = newSecret();
    assert.match(a, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(Buffer.from(a, 'base64url').length, 32);
    assert.notEqual(a, newSecret());
  });
  it('are kept only as their SHA-256 (hex), never as they are', () => {
    const secret = newSecret();
    assert.match(digestOf(secret), /^[0-9a-f]{64}$/);
    assert.ok(!digestOf(secret).includes(secret));
  });
  it('only text of their shape can be one (anything else is refused before any read)', () => {
    assert.ok(hasSecretShape(newSecret()));
    for (const text of ['', 'abc', `${newSecret()}x`, `${newSecret().slice(0, 42)}=`, '../../etc/passwd'])
      assert.ok(!hasSecretShape(text), text);
  });
  it('travel in the URL fragment of the web app’s invitation page, never its path or query', () => {
    const url = new URL(invitationUrl('https://exam.example/', 'S3cret'));
    assert.equal(url.pathname, '/invitation');
    assert.equal(url.search, '');
    assert.equal(url.hash, '#token=S3cret');
  });
});
