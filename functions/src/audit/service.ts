import type { DocumentReference, WriteBatch } from 'firebase-admin/firestore';
import type { Principal, TokenRejectionReason } from '../auth';
import type { RequestOrigin } from '../shared';
import type { AuditEventType } from './schemas';
import type { StoredAuditLog } from './documents';
import { paths } from '../firestore';
import { createAuditRecordOnce, newAuditRef, writeAuditRecord } from './store';
import { errorText, log, offTheDeadline } from '../platform';

export interface RequestMeta {
  ip_address: string;
  user_agent: string | null;
  request_id: string;
}

export const requestMeta = (origin: RequestOrigin): RequestMeta => ({
  ip_address: origin.ip,
  user_agent: origin.userAgent?.slice(0, 512) ?? null,
  request_id: origin.requestId,
});

/**
 * Starts writing a record no reply waits for (a login, a refused token): beside
 * the request and off its deadline, so a stalled audit log neither holds the
 * reply nor answers it 503. A failure is logged at ERROR with the whole record,
 * which the log then keeps instead. Resolves whether it was written; never rejects.
 */
function writeBeside(what: string, record: Omit<StoredAuditLog, 'id'>, write: () => Promise<void>): Promise<boolean> {
  return offTheDeadline(write).then(
    () => true,
    (err: unknown) => {
      log.error(`${what} failed; the request went on without it`, {
        ...record,
        event: record.event_type,
        error: errorText(err),
      });
      return false;
    },
  );
}

// Sign-ins this instance has recorded, or is recording; the deterministic document id
// makes the record unique across instances, this only saves the round trips.
const recordedLogins = new Set<string>();
const loginsUnderWay = new Set<string>();
const MAX_REMEMBERED_LOGINS = 50_000;

/**
 * One `login` record per sign-in (uid + auth_time), however many requests the
 * token makes; written beside the request. One that failed is not remembered,
 * so the sign-in's next request writes it again.
 */
export function recordLogin(principal: Principal, origin: RequestOrigin): void {
  const id = `login_${principal.uid}_${principal.authTime}`;
  if (recordedLogins.has(id) || loginsUnderWay.has(id)) return;
  loginsUnderWay.add(id);
  const record: Omit<StoredAuditLog, 'id'> = {
    event_type: 'login',
    user_id: principal.uid,
    success: true,
    timestamp: new Date(principal.authTime * 1000).toISOString(),
    client_id: principal.clientId,
    actor_id: null,
    reason: null,
    details: { role: principal.role, guest: principal.guest, first_seen_at: new Date().toISOString() },
    ...requestMeta(origin),
  };
  void writeBeside('Recording a login', record, () => createAuditRecordOnce(id, record)).then((written) => {
    loginsUnderWay.delete(id);
    if (!written) return;
    if (recordedLogins.size >= MAX_REMEMBERED_LOGINS) recordedLogins.clear();
    recordedLogins.add(id);
  });
}

/** A `token_rejected` record, written beside the request (the refusal does not wait for it). */
export function recordTokenRejected(
  origin: RequestOrigin,
  reason: TokenRejectionReason,
  claimedUid: string | null,
): void {
  const record: Omit<StoredAuditLog, 'id'> = {
    event_type: 'token_rejected',
    user_id: claimedUid ?? '',
    success: false,
    timestamp: new Date().toISOString(),
    // A refused token's claims are not trusted, so the record belongs to no tenant.
    client_id: null,
    actor_id: null,
    reason,
    details: null,
    ...requestMeta(origin),
  };
  void writeBeside('Recording a refused token', record, () => writeAuditRecord(record));
}

/**
 * Adds a user-management record to the batch that makes the change, so both
 * land or neither. With `onceId` the record can be written only once: a second
 * batch carrying it fails, which makes it a guard against doing the change twice.
 */
/** An event record as the audit log keeps it: who it is about, who did it, from where, and when. */
export function eventRecord(
  id: string,
  event: {
    type: AuditEventType;
    userId: string;
    clientId: string | null;
    actorId: string | null;
    details: Record<string, unknown> | null;
  },
  meta: RequestMeta,
): StoredAuditLog {
  return {
    id,
    event_type: event.type,
    user_id: event.userId,
    success: true,
    timestamp: new Date().toISOString(),
    client_id: event.clientId,
    actor_id: event.actorId,
    reason: null,
    details: event.details,
    ...meta,
  };
}

export function addUserEventToBatch(
  batch: WriteBatch,
  origin: RequestOrigin,
  event: {
    type: AuditEventType;
    actor: Principal;
    userId: string;
    clientId: string | null;
    details?: Record<string, unknown>;
  },
  onceId?: string,
): DocumentReference {
  const ref = onceId ? paths.auditLog(onceId) : newAuditRef();
  const record = eventRecord(
    ref.id,
    { ...event, actorId: event.actor.uid, details: event.details ?? null },
    requestMeta(origin),
  );
  if (onceId) batch.create(ref, record);
  else batch.set(ref, record);
  return ref;
}
