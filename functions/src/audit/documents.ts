import type { AuditLog } from './schemas';

// Pure: the Firestore documents the audit feature owns (where they live: firestore/paths.ts).

/** audit_logs/{id}: exactly the reply's fields. */
export type StoredAuditLog = AuditLog;
