import { requestMeta } from '../audit';
import { assertCanManageClass, type Principal } from '../auth';
import { ALREADY_EXISTS, hasStatus, NOT_FOUND } from '../firestore';
import { receiveFile } from '../transfer';
import { conflict, notFound, type RequestOrigin, type UploadBody } from '../shared';
import { loadRosterAccounts, loadRosterRows, type Plan, type RosterRow, type RowOutcome } from '../users';
import { MAX_ROSTER_BYTES, MAX_ROSTER_ROWS, type RosterOptions, type RosterResult } from './rosterSchemas';
import { addMembers, findClass, findClassOwner } from './store';

// A roster file: every email looked up in Auth, the missing students created
// (Auth accounts in one bulk call, their profiles in the class's membership
// transaction), everyone added to the class. Either it all lands or nothing
// does: the accounts are taken back when the transaction fails.

/** The class's organization, once the caller may manage the class: 404 when there is none, 403 when it is another organization's. */
async function requireClass(principal: Principal, classId: string): Promise<string> {
  if (principal.role !== 'super_admin' && principal.clientId && (await findClass(principal.clientId, classId))) {
    assertCanManageClass(principal, { clientId: principal.clientId, classId });
    return principal.clientId;
  }
  const owner = await findClassOwner(classId);
  if (!owner) throw notFound('Class not found');
  assertCanManageClass(principal, { clientId: owner, classId });
  return owner;
}

export async function importRoster(
  principal: Principal,
  classId: string,
  options: RosterOptions,
  upload: UploadBody,
  origin: RequestOrigin,
): Promise<RosterResult> {
  const { findAccounts, planRow, provisionStudents, readRosterFile, refusedRoster } = await loadRosterAccounts();
  const { rosterCounts, rosterReport } = await loadRosterRows();
  const clientId = await requireClass(principal, classId);
  const file = await receiveFile(upload, MAX_ROSTER_BYTES);
  const rows = (await file.finish(readRosterFile(file, MAX_ROSTER_ROWS))).result;

  const valid = rows.filter((r): r is RosterRow & { ok: true } => r.ok);
  const accounts = await findAccounts(valid.map((r) => r.email));
  const now = new Date().toISOString();
  const plans = new Map<number, Plan>(valid.map((r) => [r.line, planRow(r, accounts.get(r.email), clientId, now)]));
  const members = [...plans.values()].flatMap((p) => ('member' in p ? [p.member] : []));

  const planned = rosterReport(rows, (row): RowOutcome => {
    const plan = plans.get(row.line)!;
    return 'error' in plan ? { status: 'error', message: plan.error } : { status: 'added', uid: plan.member.uid };
  });
  const failed = planned.filter((r) => r.status === 'error').length;
  if (failed > 0 && options.mode === 'all_or_nothing')
    throw refusedRoster(
      `${failed} of ${rows.length} rows cannot be imported; nothing was imported (send ?mode=partial to import the others)`,
      planned,
    );
  if (members.length === 0)
    throw refusedRoster(`None of the ${rows.length} rows can be imported; nothing was imported`, planned);

  const created = members.filter((m) => m.createAccount);
  const meta = requestMeta(origin);
  let outcome: { added: string[]; alreadyMembers: string[] };
  if (options.dry_run) {
    outcome = await addMembers(clientId, classId, members, meta, { dryRun: true, actorId: principal.uid });
  } else {
    try {
      outcome = await provisionStudents(clientId, created, () =>
        addMembers(clientId, classId, members, meta, { actorId: principal.uid }),
      );
    } catch (err) {
      // A concurrent import created one of these students first, or has not finished creating one.
      if (hasStatus(err, ALREADY_EXISTS, NOT_FOUND))
        throw conflict(
          'The class or one of its students changed during the import; nothing was imported, send the roster again',
        );
      throw err;
    }
  }

  const createdUids = new Set(created.map((m) => m.uid));
  const already = new Set(outcome.alreadyMembers);
  const report = rosterReport(rows, (row): RowOutcome => {
    const plan = plans.get(row.line)!;
    if ('error' in plan) return { status: 'error', message: plan.error };
    const { uid } = plan.member;
    return { status: already.has(uid) ? 'already_member' : createdUids.has(uid) ? 'created' : 'added', uid };
  });
  return { class_id: classId, dry_run: options.dry_run, mode: options.mode, ...rosterCounts(report), rows: report };
}
