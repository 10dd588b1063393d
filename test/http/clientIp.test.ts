import assert from 'node:assert/strict';
import { trustedProxy } from '../../functions/src/http/clientIp';

// Express walks X-Forwarded-For from the right (hop 0 is the socket peer) and
// stops at the first address this function does not trust.
function clientOf(
  trust: (address: string, hop: number) => boolean,
  socketPeer: string,
  forwardedFor: string[],
): string {
  const chain = [socketPeer, ...[...forwardedFor].reverse()];
  let hop = 0;
  while (hop < chain.length - 1 && trust(chain[hop], hop)) hop += 1;
  return chain[hop];
}

describe('trustedProxy', () => {
  const hostingEdge = '203.0.113.0/24';

  it('takes the address the front end appended on a direct call, whatever the caller wrote before it', () => {
    const trust = trustedProxy(1, [hostingEdge]);
    assert.equal(clientOf(trust, '169.254.1.1', ['6.6.6.6', '198.51.100.7']), '198.51.100.7');
  });

  it('takes the address the Hosting edge appended when the request came through it', () => {
    const trust = trustedProxy(1, [hostingEdge]);
    assert.equal(clientOf(trust, '169.254.1.1', ['6.6.6.6', '198.51.100.7', '203.0.113.9']), '198.51.100.7');
  });

  it('cannot be fooled by a caller who writes an edge address itself: the front end appends the caller’s real one', () => {
    const trust = trustedProxy(1, [hostingEdge]);
    assert.equal(clientOf(trust, '169.254.1.1', ['203.0.113.9', '198.51.100.7']), '198.51.100.7');
  });

  it('trusts nothing beyond the counted hops when no ranges are listed', () => {
    const trust = trustedProxy(1, []);
    assert.equal(clientOf(trust, '169.254.1.1', ['198.51.100.7', '203.0.113.9']), '203.0.113.9');
  });

  it('matches IPv6 ranges and IPv4-mapped addresses', () => {
    const trust = trustedProxy(0, ['2001:db8:ed6e::/48', '203.0.113.0/24']);
    assert.equal(trust('2001:db8:ed6e::1', 5), true);
    assert.equal(trust('::ffff:203.0.113.4', 5), true);
    assert.equal(trust('2001:db8:1::1', 5), false);
    assert.equal(trust('not-an-address', 5), false);
  });
});
