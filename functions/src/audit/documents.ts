import type { AuditRecord } from './schemas';

// Pure: the Firestore documents the audit feature owns (where they live: firestore/paths.ts).

/** audit_logs/{id}: the reply's fields but the names, which are read when a page is listed. */
export type StoredAuditLog = AuditRecord;
