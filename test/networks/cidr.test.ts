import assert from 'node:assert/strict';
import { MIN_IPV4_PREFIX, MIN_IPV6_PREFIX, NetworkSet, parseNetwork } from '../../functions/src/networks/cidr';

// Pure: the networks an organization may register, and the lookup of an address among them. No emulator needed.

const accepted = (text: string): string => {
  const verdict = parseNetwork(text);
  assert.ok(verdict.ok, `${text} is accepted: ${JSON.stringify(verdict)}`);
  return verdict.cidr;
};
const refused = (text: string, why: RegExp): void => {
  const verdict = parseNetwork(text);
  assert.ok(!verdict.ok, `${text} is refused, not ${JSON.stringify(verdict)}`);
  assert.match(verdict.message, why, text);
};

describe('networks/cidr parseNetwork', () => {
  it('bounds IPv4 at /16 and IPv6 at /32: those and longer are accepted, one bit shorter is refused', () => {
    assert.equal(MIN_IPV4_PREFIX, 16);
    assert.equal(MIN_IPV6_PREFIX, 32);
    assert.equal(accepted('10.20.0.0/16'), '10.20.0.0/16');
    assert.equal(accepted('203.0.113.7/32'), '203.0.113.7/32');
    assert.equal(accepted('2001:db8::/32'), '2001:db8::/32');
    assert.equal(accepted('2001:db8:1:2:3:4:5:6/128'), '2001:db8:1:2:3:4:5:6/128');
    refused('10.20.0.0/15', /IPv4 network must be \/16 or longer/);
    refused('0.0.0.0/0', /\/16 or longer/);
    refused('2001:db8::/31', /IPv6 network must be \/32 or longer/);
    refused('::/0', /\/32 or longer/);
  });

  it('refuses a prefix with host bits set, naming the network it would be', () => {
    refused('203.0.113.1/24', /Host bits are set: the network is 203\.0\.113\.0\/24/);
    refused('10.20.1.0/16', /the network is 10\.20\.0\.0\/16/);
    refused('2001:db8:1::1/48', /the network is 2001:db8:1::\/48/);
  });

  it('refuses IPv4-mapped IPv6 prefixes: an IPv4 network is written in IPv4', () => {
    refused('::ffff:203.0.113.0/120', /IPv4 notation/);
    refused('::ffff:0:0/96', /IPv4 notation/);
  });

  it('answers the canonical form: lower-case, compressed IPv6 and a plain prefix length', () => {
    assert.equal(accepted('2001:DB8:1::/48'), '2001:db8:1::/48');
    assert.equal(accepted('2001:0db8:0001:0000:0000:0000:0000:0000/48'), '2001:db8:1::/48');
    assert.equal(accepted('203.0.113.0/024'), '203.0.113.0/24');
  });

  it('refuses IPv4 that is not four decimal parts, which ipaddr.js would read as another network (octal, hex, short forms)', () => {
    for (const text of ['010.1.0.0/16', '0xcb.0.113.0/24', '203.0.113/24', '3405803776/24'])
      refused(text, /four decimal numbers/);
  });

  it('refuses what is no CIDR prefix at all: no length, a length too long, text, a zone index', () => {
    for (const text of ['203.0.113.0', '203.0.113.0/33', '2001:db8::/129', 'school', '', '/24', '203.0.113.0/24/8'])
      refused(text, /Not a CIDR prefix/);
    refused('fe80::%eth0/64', /zone/);
  });
});

describe('networks/cidr NetworkSet.contains', () => {
  const set = new NetworkSet(['203.0.113.0/24', '10.20.0.0/16', '2001:db8:1::/48', '198.51.100.7/32']);

  it('finds an IPv4 address inside a network, at its first and last address, and not one outside', () => {
    for (const ip of ['203.0.113.0', '203.0.113.77', '203.0.113.255', '10.20.255.1', '198.51.100.7'])
      assert.ok(set.contains(ip), ip);
    for (const ip of ['203.0.112.255', '203.0.114.0', '10.21.0.0', '198.51.100.8', '8.8.8.8'])
      assert.ok(!set.contains(ip), ip);
  });

  it('finds an IPv6 address inside a network, whatever its spelling, and not one outside', () => {
    for (const ip of [
      '2001:db8:1::1',
      '2001:DB8:1:ffff:ffff:ffff:ffff:ffff',
      '2001:0db8:0001:0000:0000:0000:0000:0042',
    ])
      assert.ok(set.contains(ip), ip);
    for (const ip of ['2001:db8:2::1', '2001:db8::1', '::1']) assert.ok(!set.contains(ip), ip);
  });

  it("finds an IPv4-mapped IPv6 address (a dual-stack socket's view of an IPv4 caller) inside the IPv4 network", () => {
    assert.ok(set.contains('::ffff:203.0.113.9'));
    assert.ok(set.contains('::ffff:cb00:7109'), 'the same address in hex');
    assert.ok(!set.contains('::ffff:203.0.114.9'));
  });

  it('never finds an address that is none: "unknown", empty, text, a prefix', () => {
    for (const ip of ['unknown', '', 'school', '203.0.113.0/24', '203.0.113']) assert.ok(!set.contains(ip), ip);
  });

  it('is empty with no networks, and finds nothing', () => {
    const none = new NetworkSet([]);
    assert.equal(none.size, 0);
    assert.ok(!none.contains('203.0.113.1'));
  });

  it('finds addresses among many networks of many lengths, and counts every network once', () => {
    const cidrs: string[] = [];
    for (let a = 0; a < 50; a++) for (let b = 0; b < 40; b++) cidrs.push(`100.${a}.${b * 4}.0/${22 + (b % 3)}`);
    for (let i = 0; i < 500; i++) cidrs.push(`2001:db8:${i.toString(16)}::/48`);
    const many = new NetworkSet(cidrs);
    assert.equal(many.size, cidrs.length);
    assert.deepEqual(many.cidrs, cidrs);
    assert.ok(many.contains('100.49.156.3'), 'inside the last IPv4 network (/22 from 100.49.156.0)');
    assert.ok(many.contains('2001:db8:1f3::abcd'), 'inside the last IPv6 network');
    assert.ok(!many.contains('100.50.0.1'));
    assert.ok(!many.contains('2001:db8:1f4::1'));
  });

  it('holds a network registered twice (by two organizations) once', () => {
    const twice = new NetworkSet(['203.0.113.0/24', '203.0.113.0/24']);
    assert.equal(twice.size, 1);
    assert.ok(twice.contains('203.0.113.5'));
  });
});
