import { defineRoute, type RouteDefinition } from '../http';
import { MAX_MEMBERS_PER_CLASS } from './documents';
import { MAX_ROSTER_ROWS, RosterParams, RosterQuery, RosterResult } from './rosterSchemas';

export const rosterRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'post',
    path: '/classes/{classId}/roster',
    summary: 'Import a class roster from a CSV file',
    description:
      'multipart/form-data with exactly one file part named "file": UTF-8 CSV (a BOM, CRLF, quoted fields and blank lines are fine), ' +
      `at most 1 MB (413) and ${MAX_ROSTER_ROWS} rows (400). Header row: email, name (display_name is accepted for name), any order, case aside. ` +
      'Emails are compared trimmed and in lower case; a repeated email is an error on its later rows. ' +
      'Each email is looked up: a student of the class’s organization is added (already_member when it is one); an email with no account ' +
      'creates a student account without a password (the name is then required), who signs in after a password reset or an email sign-in link; ' +
      'any other account (an administrator, or another organization’s user) is an error row that does not say which. ' +
      'All or nothing by default: any error row answers 400 VALIDATION_ERROR carrying `rows` (the error rows) and nothing is written. ' +
      '?mode=partial imports the valid rows and reports the others (400 when none is valid); ?dry_run=true checks everything, the class’s bounds ' +
      'included, and writes nothing (no account either). ' +
      `A roster that would take the class past ${MAX_MEMBERS_PER_CLASS} members, or a student past its bound of classes, answers 409 CONFLICT ` +
      'and writes nothing, in either mode: partial mode leaves out invalid rows, never rows over a bound. ' +
      'The Client Admin of the class’s organization or a Super Admin; another organization’s class answers 403, an unknown one 404.',
    tag: 'Classes',
    access: ['super_admin', 'client_admin'],
    sensitive: true,
    params: RosterParams,
    query: RosterQuery,
    upload: { field: 'file', description: 'The roster (UTF-8 CSV with the header email,name; at most 1 MB)' },
    success: { status: 200, description: 'What became of every row (for a dry run, what would)', schema: RosterResult },
    errors: ['NOT_FOUND', 'CONFLICT', 'PAYLOAD_TOO_LARGE'],
    // The CSV parser and multipart reader load on first use, as for the question import.
    handler: async ({ principal, params, query, upload, call }) => {
      const { importRoster } = await import('./rosterService');
      return { status: 200, body: await importRoster(principal, params.classId, query, upload!, call) };
    },
  }),
];
