import { addUserEventToBatch } from '../audit';
import { type Principal, studentImportScope } from '../auth';
import { requireClient } from '../clients';
import { ALREADY_EXISTS, db, hasStatus, paths } from '../firestore';
import { receiveFile } from '../transfer';
import { conflict, type RequestOrigin, type UploadBody } from '../shared';
import {
  MAX_USER_IMPORT_BYTES,
  MAX_USER_IMPORT_ROWS,
  type ImportUsersOptions,
  type UserImportResult,
  type UserImportRow,
} from './importSchemas';
import { invitationLinks } from './invitations';
import {
  findAccounts,
  planRow,
  provisionStudents,
  readRosterFile,
  refusedRoster,
  type Member,
  type Plan,
} from './rosterAccounts';
import { rosterReport, type RosterRow, type RowOutcome } from './rosterRows';

// The organization's roster: a CSV of email, name and an optional password. The students it does not
// have are created (with the row's password, or with none and an invitation link in the reply); the
// ones it has are reported and left as they are. All of it lands or none of it: the accounts are made
// first and taken back when their profiles and records cannot be written.

export const NO_LINK = 'created, but no invitation link could be made: POST /api/users/{uid}/invitation makes one';

export async function importStudents(
  principal: Principal,
  options: ImportUsersOptions,
  upload: UploadBody,
  origin: RequestOrigin,
  baseUrl: string,
): Promise<UserImportResult> {
  const clientId = studentImportScope(principal, options.client_id);
  // A Client Admin's own organization exists (authentication checked it is active); a named one may not.
  if (principal.role === 'super_admin') await requireClient(clientId);
  const file = await receiveFile(upload, MAX_USER_IMPORT_BYTES);
  const rows = (await file.finish(readRosterFile(file, MAX_USER_IMPORT_ROWS, ['password']))).result;

  const valid = rows.filter((r): r is RosterRow & { ok: true } => r.ok);
  const accounts = await findAccounts(valid.map((r) => r.email));
  const now = new Date().toISOString();
  const plans = new Map<number, Plan>(valid.map((r) => [r.line, planRow(r, accounts.get(r.email), clientId, now)]));
  const members = [...plans.values()].flatMap((p) => ('member' in p ? [p.member] : []));
  const report = rosterReport(rows, (row): RowOutcome => {
    const plan = plans.get(row.line)!;
    if ('error' in plan) return { status: 'error', message: plan.error };
    return { status: plan.member.createAccount ? 'created' : 'already_member', uid: plan.member.uid };
  });

  const failed = report.filter((r) => r.status === 'error').length;
  if (failed > 0 && options.mode === 'all_or_nothing')
    throw refusedRoster(
      `${failed} of ${rows.length} rows cannot be imported; nothing was imported (send ?mode=partial to import the others)`,
      report,
    );
  if (members.length === 0)
    throw refusedRoster(`None of the ${rows.length} rows can be imported; nothing was imported`, report);

  let links = new Map<string, string>();
  if (!options.dry_run) {
    const created = members.filter((m) => m.createAccount);
    await writeStudents(principal, clientId, created, await withoutProfile(clientId, members), origin);
    const invitees = created.filter((m) => m.password === undefined);
    links = await invitationLinks(
      principal,
      invitees.map((m) => ({ uid: m.uid, email: m.email, display_name: m.display_name, client_id: clientId })),
      origin,
      baseUrl,
    );
  }

  const invited = new Set(members.filter((m) => m.createAccount && m.password === undefined).map((m) => m.uid));
  // The report above says only created, already_member or error here: no row is "added" to anything.
  const rowsOut = (report as UserImportRow[]).map((r): UserImportRow => {
    if (options.dry_run || r.status !== 'created' || !invited.has(r.uid!)) return r;
    const link = links.get(r.uid!);
    return link ? { ...r, invitation_link: link } : { ...r, message: NO_LINK };
  });
  const count = (status: UserImportRow['status']) => rowsOut.filter((r) => r.status === status).length;
  return {
    client_id: clientId,
    dry_run: options.dry_run,
    mode: options.mode,
    rows_total: rowsOut.length,
    created: count('created'),
    already_members: count('already_member'),
    failed: count('error'),
    rows: rowsOut,
  };
}

/** The existing students among `members` that have no profile: an import cut short made their accounts only. */
async function withoutProfile(clientId: string, members: Member[]): Promise<Member[]> {
  const existing = members.filter((m) => !m.createAccount);
  if (existing.length === 0) return [];
  const snaps = await db.getAll(...existing.map((m) => paths.clientUser(clientId, m.uid)));
  return existing.filter((_, i) => !snaps[i].exists);
}

/**
 * The new accounts, then in one batch a profile and a user_created record for each of them (and for an
 * account an earlier import left without a profile). The batch creates the profiles: one a concurrent
 * import wrote first fails it, and the accounts made here are taken back.
 */
async function writeStudents(
  principal: Principal,
  clientId: string,
  created: Member[],
  completed: Member[],
  origin: RequestOrigin,
): Promise<void> {
  try {
    await provisionStudents(clientId, created, async () => {
      const batch = db.batch();
      for (const member of [...created, ...completed]) {
        batch.create(paths.clientUser(clientId, member.uid), member.newProfile);
        addUserEventToBatch(batch, origin, {
          type: 'user_created',
          actor: principal,
          userId: member.uid,
          clientId,
          details: { role: 'student', source: 'roster' },
        });
      }
      await batch.commit();
    });
  } catch (err) {
    if (hasStatus(err, ALREADY_EXISTS))
      throw conflict(
        'One of these students was created by another request meanwhile; nothing was imported, send the roster again',
      );
    throw err;
  }
}
