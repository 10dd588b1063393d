import assert from 'node:assert/strict';
import { prefixRange } from '../../functions/src/shared/prefixRange';

/** Whether `text` falls in the range, in the order of UTF-8 bytes (Firestore's order for strings). */
const within = (text: string, range: { start: string; end: string | undefined }) =>
  Buffer.compare(Buffer.from(text), Buffer.from(range.start)) >= 0 &&
  (range.end === undefined || Buffer.compare(Buffer.from(text), Buffer.from(range.end)) < 0);

describe('prefixRange', () => {
  it('ends at the prefix with its last character moved one on', () => {
    assert.deepEqual(prefixRange('ada'), { start: 'ada', end: 'adb' });
  });
  it('holds every text that starts with the prefix, and none that does not', () => {
    const range = prefixRange('ad');
    for (const text of ['ad', 'ada', 'ad\u{10ffff}', 'ad😀', 'adz', 'ad\uffff']) assert.ok(within(text, range), text);
    for (const text of ['ac', 'ae', 'a', 'b', 'Ad', 'ae\u0000']) assert.ok(!within(text, range), text);
  });
  it('moves past the surrogates, which are not characters', () => {
    assert.equal(prefixRange('a\ud7ff').end, 'a\ue000');
  });
  it('moves a character outside the first plane whole', () => {
    assert.equal(prefixRange('a😀').end, 'a😁');
  });
  it('has no end after the highest character', () => {
    assert.equal(prefixRange('a\u{10ffff}').end, undefined);
  });
});
