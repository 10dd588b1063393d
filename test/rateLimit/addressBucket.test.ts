import assert from 'node:assert/strict';
import { addressBucket } from '../../functions/src/rateLimit/addressBucket';

describe('addressBucket', () => {
  it('counts every address of one IPv6 /64 as one caller', () => {
    assert.equal(addressBucket('2001:db8:1:2::1'), addressBucket('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    assert.equal(addressBucket('2001:db8:1:2::1'), '2001:db8:1:2::/64');
  });
  it('keeps different /64s apart', () => {
    assert.notEqual(addressBucket('2001:db8:1:2::1'), addressBucket('2001:db8:1:3::1'));
  });
  it('reads compressed and expanded IPv6 alike', () => {
    assert.equal(addressBucket('2001:0db8:0000:0000:0000:0000:0000:0001'), addressBucket('2001:db8::1'));
  });
  it('counts IPv4 per address, also when written IPv4-mapped', () => {
    assert.equal(addressBucket('203.0.113.7'), '203.0.113.7');
    assert.equal(addressBucket('::ffff:203.0.113.7'), '203.0.113.7');
    assert.notEqual(addressBucket('203.0.113.7'), addressBucket('203.0.113.8'));
  });
  it('leaves anything that is not an address as it is (e.g. "unknown" in the emulator)', () => {
    assert.equal(addressBucket('unknown'), 'unknown');
  });
});
