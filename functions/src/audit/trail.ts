import type { Transaction, WriteBatch } from 'firebase-admin/firestore';
import type { AuditEventType } from './schemas';
import { eventRecord, type RequestMeta } from './service';
import { newAuditRef } from './store';

// The audit record every change of an attempt writes in its own transaction.

/** Where a change came from: the request's address, agent and id, or the scheduler. */
export type AuditMeta = RequestMeta;

export const SCHEDULER_META: AuditMeta = {
  ip_address: '',
  user_agent: 'scheduler',
  request_id: 'close-overdue-attempts',
};

/** The record lands with the change it records: in its transaction, or its batch when the change needs no read. */
export function addAudit(
  tx: Transaction | WriteBatch,
  meta: AuditMeta,
  event: {
    type: AuditEventType;
    userId: string;
    clientId: string | null;
    actorId: string | null;
    details: Record<string, unknown>;
  },
): void {
  const ref = newAuditRef();
  tx.create(ref, eventRecord(ref.id, event, meta));
}
