import assert from 'node:assert/strict';
import { addressAllowed, checkOutboundUrl, type UrlProblem } from '../../functions/src/outbound/addressGuard';

// The one address guard of every outbound call: which addresses and URLs a
// webhook's receiver or an LTI platform may be, under a loopback policy.

describe('outbound addresses and URLs (a webhook receiver, an LTI platform)', () => {
  const prod = { allowLoopback: false };
  const emulators = { allowLoopback: true };

  it('allows public addresses only, whatever the spelling', () => {
    for (const a of ['8.8.8.8', '2606:4700::1111']) assert.ok(addressAllowed(a, prod), a);
    for (const a of [
      '10.0.0.1',
      '172.16.0.1',
      '192.168.1.1',
      '127.0.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '100.64.0.1',
      '::1',
      'fc00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
      '::ffff:127.0.0.1',
      '224.0.0.1',
      '255.255.255.255',
    ])
      assert.ok(!addressAllowed(a, prod), a);
  });

  it('allows loopback only where the deployment says so (the emulators), never a private address', () => {
    assert.ok(addressAllowed('127.0.0.1', emulators));
    assert.ok(addressAllowed('::1', emulators));
    assert.ok(!addressAllowed('10.0.0.1', emulators));
  });

  it('accepts https URLs to names and public addresses; http only to loopback on the emulators', () => {
    assert.ok(checkOutboundUrl('https://hooks.example.com/x', prod).ok);
    assert.ok(checkOutboundUrl('https://8.8.8.8/x', prod).ok);
    assert.ok(!checkOutboundUrl('http://hooks.example.com/x', prod).ok);
    assert.ok(!checkOutboundUrl('http://hooks.example.com/x', emulators).ok);
    assert.ok(checkOutboundUrl('http://127.0.0.1:9/x', emulators).ok);
    assert.ok(checkOutboundUrl('http://localhost:9/x', emulators).ok);
    for (const url of [
      'http://127.0.0.1:9/x',
      'https://127.0.0.1/x',
      'https://localhost/x',
      'https://[::1]/x',
      'https://10.0.0.1/x',
      'https://[::ffff:192.168.0.1]/x',
      'not a url',
      'ftp://hooks.example.com',
      'https://user:pw@hooks.example.com/',
    ])
      assert.ok(!checkOutboundUrl(url, prod).ok, url);
  });
});

describe('checkOutboundUrl: the first problem found', () => {
  const prod = { allowLoopback: false };
  const emulators = { allowLoopback: true };
  const problemOf = (url: string, policy: { allowLoopback: boolean }): UrlProblem | null => {
    const verdict = checkOutboundUrl(url, policy);
    return verdict.ok ? null : verdict.problem;
  };

  const cases: Array<[string, { allowLoopback: boolean }, UrlProblem | null]> = [
    ['https://lms.example/token', prod, null],
    ['https://8.8.8.8/token', prod, null],
    ['http://lms.example/token', prod, 'not_https'],
    ['nope', prod, 'not_url'],
    ['https://user:pw@lms.example/', prod, 'credentials'],
    ['https://127.0.0.1/x', prod, 'loopback'],
    ['https://localhost/x', prod, 'loopback'],
    ['https://[::1]/x', prod, 'loopback'],
    ['http://127.0.0.1:8000/jwks', prod, 'loopback'],
    ['https://10.0.0.1/x', prod, 'not_public'],
    ['https://169.254.169.254/x', prod, 'not_public'],
    ['http://127.0.0.1:9000/token', emulators, null],
    ['https://localhost/x', emulators, null],
    ['http://10.0.0.1/x', emulators, 'not_https'],
    ['https://10.0.0.1/x', emulators, 'not_public'],
  ];
  for (const [url, policy, problem] of cases)
    it(`${url} ${policy.allowLoopback ? 'with' : 'without'} loopback: ${problem ?? 'allowed'}`, () =>
      assert.equal(problemOf(url, policy), problem));
});
