import { nameFields, type PersonName } from '../people';
import type { StoredAuditLog } from './documents';
import type { AuditLog } from './schemas';

// Pure: a stored record with the names read for its page.

export function namedRecord(
  record: StoredAuditLog,
  people: Map<string, PersonName>,
  tests: Map<string, string>,
): AuditLog {
  const testId = record.details?.test_id;
  return {
    ...record,
    ...nameFields('user', people, record.event_type === 'token_rejected' ? null : record.user_id),
    ...nameFields('actor', people, record.actor_id),
    test_name: typeof testId === 'string' ? (tests.get(testId) ?? null) : null,
  };
}
