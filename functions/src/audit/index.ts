// Front door of audit/: the audit log: the record a change writes in its own transaction, logins, its reading.
// What other folders may use; nothing else of this folder is imported from outside.
export type { AuditEventType } from './schemas';
export { addUserEventToBatch, recordLogin, recordTokenRejected, requestMeta } from './service';
export { SCHEDULER_META, addAudit } from './trail';
export type { AuditMeta } from './trail';
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadRoutes = () => import('./routes');
