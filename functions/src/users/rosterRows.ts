import { createHash } from 'node:crypto';
import { z } from 'zod';

// Pure: a roster file's CSV records to rows (email normalized, name trimmed),
// the errors a row carries on its own (a bad email, a repeated one), and the
// per-row report the import answers with. Who the emails belong to is the
// service's to find out.

/** A roster's columns; `display_name` is accepted for `name` (the API's own word for it). */
export const ROSTER_COLUMNS = ['email', 'name'] as const;
/** Columns a roster may have when its import takes them: a class roster takes none, the organization's `password`. */
export type OptionalColumn = 'password';
export type RosterColumn = (typeof ROSTER_COLUMNS)[number] | OptionalColumn;
const ALIASES: Record<string, RosterColumn> = {
  email: 'email',
  name: 'name',
  display_name: 'name',
  password: 'password',
};

/** Each cell's column, in order; null for a blank trailing header cell (spreadsheets export those). */
export type RosterHeader = Array<RosterColumn | null>;

const Email = z.email().max(254);
/** As a user's display_name: 1 to 100 characters once trimmed. */
export const MAX_NAME_LENGTH = 100;
/** As a user's password (users/schemas.ts): 8 to 128 characters, taken as written (not trimmed). */
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 128;

export type RowStatus = 'created' | 'added' | 'already_member' | 'error';

/** One line of the reply's report. */
export interface RosterReportRow {
  line: number;
  email: string;
  name: string | null;
  status: RowStatus;
  uid?: string;
  message?: string;
}

/**
 * A data row as read: valid so far (its email, name and password checked), or an error with its message.
 * `password` is there only when the row sets one; it never goes into a report.
 */
export type RosterRow =
  | { ok: true; line: number; email: string; name: string | null; password?: string }
  | { ok: false; line: number; email: string; name: string | null; message: string };

/** The columns a header row names, or why it is not a roster header; `optional` lists the further columns it may have. */
export function parseRosterHeader(
  cells: string[],
  optional: readonly OptionalColumn[] = [],
): { columns: RosterHeader } | { error: string } {
  const names = cells.map((c) => c.trim().toLowerCase());
  let last = names.length;
  while (last > 0 && names[last - 1] === '') last--;
  const problems: string[] = [];
  const seen = new Set<RosterColumn>();
  const columns: RosterHeader = names.map((name, i) => {
    if (i >= last) return null;
    const alias = ALIASES[name] as RosterColumn | undefined;
    const column = alias && (ROSTER_COLUMNS as readonly string[]).concat(optional).includes(alias) ? alias : undefined;
    if (name === '') problems.push(`column ${i + 1} has no name`);
    else if (!column) problems.push(`unknown column "${cells[i].trim().slice(0, 40)}"`);
    else if (seen.has(column)) problems.push(`column "${column}" appears twice`);
    if (column) seen.add(column);
    return column ?? null;
  });
  const missing = ROSTER_COLUMNS.filter((c) => !seen.has(c));
  if (missing.length > 0) problems.push(`missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
  const expected = ['email', 'name (or display_name)', ...optional.map((c) => `${c} (optional)`)].join(', ');
  if (problems.length > 0)
    return { error: `The header row (line 1) is not valid: ${problems.join('; ')}; expected ${expected}` };
  return { columns };
}

/** Emails compare as Firebase Auth compares them: case aside. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/**
 * One data row (at `line`), checked on its own: a valid email, a name of at most 100 characters (blank: null),
 * and a password, when the column is there and the cell is not blank, of 8 to 128 characters.
 */
export function rosterRow(line: number, columns: RosterHeader, cells: string[]): RosterRow {
  const cell = (column: RosterColumn) => {
    const i = columns.indexOf(column);
    return i >= 0 ? (cells[i] ?? '') : '';
  };
  const email = normalizeEmail(cell('email'));
  const nameText = cell('name').trim();
  const name = nameText === '' ? null : nameText;
  const fail = (message: string): RosterRow => ({
    ok: false,
    line,
    email: email.slice(0, 254),
    name: name?.slice(0, MAX_NAME_LENGTH) ?? null,
    message,
  });
  if (email === '') return fail('email is required');
  if (!Email.safeParse(email).success) return fail('email is not a valid email address');
  if (name !== null && name.length > MAX_NAME_LENGTH) return fail(`name is longer than ${MAX_NAME_LENGTH} characters`);
  const password = cell('password');
  if (password === '') return { ok: true, line, email, name };
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH)
    return fail(`password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`);
  return { ok: true, line, email, name, password };
}

/** Every row after the first with the same email is an error naming the line it repeats. */
export function markDuplicates(rows: RosterRow[]): RosterRow[] {
  const firstLine = new Map<string, number>();
  return rows.map((row) => {
    if (row.email === '') return row;
    const first = firstLine.get(row.email);
    if (first === undefined) {
      firstLine.set(row.email, row.line);
      return row;
    }
    if (!row.ok) return row;
    return { ...row, ok: false, message: `email repeats line ${first}` };
  });
}

/** What became of a valid row, once the service knows who its email is. */
export type RowOutcome =
  { status: 'created' | 'added' | 'already_member'; uid: string } | { status: 'error'; message: string };

/** The report: every row in file order, its outcome (a row already in error keeps its message). */
export function rosterReport(rows: RosterRow[], outcomeOf: (row: RosterRow & { ok: true }) => RowOutcome) {
  return rows.map((row): RosterReportRow => {
    const base = { line: row.line, email: row.email, name: row.name };
    if (!row.ok) return { ...base, status: 'error', message: row.message };
    const outcome = outcomeOf(row);
    return outcome.status === 'error'
      ? { ...base, status: 'error', message: outcome.message }
      : { ...base, status: outcome.status, uid: outcome.uid };
  });
}

/** The counts the reply carries beside its rows. */
export function rosterCounts(report: RosterReportRow[]) {
  const count = (status: RowStatus) => report.filter((r) => r.status === status).length;
  return {
    rows_total: report.length,
    created: count('created'),
    added: count('added'),
    already_members: count('already_member'),
    failed: count('error'),
  };
}

/**
 * The uid a student created by a roster gets: fixed by the organization and the email, so two
 * imports of one new email racing each other make one account, not two (Auth refuses to create a
 * uid, or an email, that exists).
 */
export const rosterUid = (clientId: string, email: string): string =>
  createHash('sha256').update(`roster\u0000${clientId}\u0000${email}`).digest('base64url').slice(0, 28);
