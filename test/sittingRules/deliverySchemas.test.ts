import assert from 'node:assert/strict';
import { PatchTestBody } from '../../functions/src/sittingRules/deliverySchemas';

// The instants of a test's delivery settings, pure: what is taken is what the
// service can answer, and take back, as ISO 8601 UTC (years 0000 to 9999).

const INSTANT_FIELDS = ['opens_at', 'closes_at', 'review_opens_at'] as const;

const issuesFor = (field: string, value: string) => {
  const parsed = PatchTestBody.safeParse({ [field]: value });
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join('.'));
};

describe('deliverySchemas: instants', () => {
  it('refuses, naming the field, an instant with an offset whose UTC year falls outside 0000 to 9999', () => {
    for (const field of INSTANT_FIELDS) {
      for (const value of ['9999-12-31T23:30:00-01:00', '0000-01-01T00:30:00+01:00']) {
        assert.deepEqual(issuesFor(field, value), [field], `${field}: ${value}`);
      }
    }
  });

  it('takes the first and last instants of years 0000 to 9999, with or without an offset', () => {
    for (const field of INSTANT_FIELDS) {
      for (const value of [
        '9999-12-31T23:59:59.999Z',
        '9999-12-31T23:30:00+01:00',
        '0000-01-01T00:00:00Z',
        '0000-01-01T00:30:00-01:00',
      ]) {
        assert.deepEqual(issuesFor(field, value), [], `${field}: ${value}`);
        // What is taken is stored as its UTC form, which the schema takes back.
        assert.deepEqual(issuesFor(field, new Date(value).toISOString()), [], `${field}: ${value} in UTC`);
      }
    }
  });
});
