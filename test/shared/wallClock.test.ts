import assert from 'node:assert/strict';
import { localTime } from '../../functions/src/shared';

describe('localTime: an instant as a zone’s wall clock', () => {
  const cases: Array<[string | null, string, string]> = [
    ['2026-03-02T08:14:05.000Z', 'Europe/Paris', '2026-03-02 09:14:05'],
    ['2026-07-02T08:14:05.000Z', 'Europe/Paris', '2026-07-02 10:14:05'],
    ['2026-03-02T00:00:00.000Z', 'UTC', '2026-03-02 00:00:00'],
    ['2026-03-01T23:30:00.000Z', 'Asia/Kolkata', '2026-03-02 05:00:00'],
    ['2026-03-02T03:00:00.000Z', 'America/New_York', '2026-03-01 22:00:00'],
    [null, 'UTC', ''],
    ['not a date', 'UTC', ''],
  ];
  for (const [iso, zone, text] of cases)
    it(`${iso} in ${zone} → "${text}"`, () => assert.equal(localTime(iso, zone), text));
});
