import type { DocumentReference } from 'firebase-admin/firestore';
import { ALREADY_EXISTS, fetchPage, hasStatus, paths } from '../firestore';
import type { PageRequest } from '../shared';
import { auditQuerySpec } from './auditQuery';
import type { StoredAuditLog } from './documents';

export const newAuditRef = (): DocumentReference => paths.auditLogs().doc();

/** Writes a record under a deterministic id once; a second writer finds it there and stops. */
export async function createAuditRecordOnce(id: string, record: Omit<StoredAuditLog, 'id'>): Promise<void> {
  try {
    await paths.auditLog(id).create({ id, ...record });
  } catch (err) {
    if (!hasStatus(err, ALREADY_EXISTS)) throw err;
  }
}

export async function writeAuditRecord(record: Omit<StoredAuditLog, 'id'>): Promise<void> {
  const ref = newAuditRef();
  await ref.set({ id: ref.id, ...record });
}

export async function listAuditRecords(filters: Parameters<typeof auditQuerySpec>[0], page: PageRequest) {
  const { docs, pagination } = await fetchPage(paths.auditLogs(), auditQuerySpec(filters), page);
  return { data: docs as StoredAuditLog[], pagination };
}
