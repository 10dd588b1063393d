import assert from 'node:assert/strict';
import { MAX_CLASSES_PER_TEST } from '../../functions/src/classes/documents';
import { MAX_ASSIGNED_CLASSES, PatchTestBody } from '../../functions/src/sittingRules/deliverySchemas';

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

describe('deliverySchemas: assigned_class_ids', () => {
  const issues = (value: unknown) => {
    const parsed = PatchTestBody.safeParse({ assigned_class_ids: value });
    return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  };

  it('bounds the classes by classes/documents.ts’s MAX_CLASSES_PER_TEST', () => {
    assert.equal(MAX_ASSIGNED_CLASSES, MAX_CLASSES_PER_TEST);
    assert.deepEqual(issues(Array.from({ length: MAX_CLASSES_PER_TEST }, (_, i) => `c${i}`)), []);
    assert.equal(issues(Array.from({ length: MAX_CLASSES_PER_TEST + 1 }, (_, i) => `c${i}`)).length, 1);
  });

  it('takes [] (open to the organization) and refuses a repeated class, naming it', () => {
    assert.deepEqual(issues([]), []);
    const [issue] = issues(['a', 'b', 'a']);
    assert.match(issue, /^assigned_class_ids: .*repeated: a$/);
  });

  it('refuses an id that could name no document', () => {
    for (const id of ['', 'a/b', '__x__', 'x'.repeat(129)]) assert.equal(issues([id]).length > 0, true, id);
  });
});
