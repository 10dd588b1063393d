import type { QuerySpec } from '../shared';

// Pure: the shape of every audit-log listing, newest first.
export function auditQuerySpec(filters: {
  client_id?: string;
  event_type?: string;
  user_id?: string;
  success?: boolean;
}): QuerySpec {
  return {
    collectionId: 'audit_logs',
    equals: {
      client_id: filters.client_id,
      event_type: filters.event_type,
      user_id: filters.user_id,
      success: filters.success,
    },
    orderBy: [{ field: 'timestamp', direction: 'desc' }],
  };
}
