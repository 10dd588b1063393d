import { csvText } from '../../csv';

// Pure: the new students' invitation links as the CSV *Download the invitation links (CSV)* saves,
// written by the app's one CSV rule (a name a spreadsheet would evaluate is escaped).

/** What a row of the file takes from a roster import's report row. */
interface InvitedRow {
  email: string;
  name: string | null;
  invitation_link?: string;
}

/** The rows' email, name and link, the header first: for a mail merge. */
export function invitationsCsv(rows: readonly InvitedRow[]): string {
  return csvText([
    ['email', 'name', 'invitation_link'],
    ...rows.map((r) => [r.email, r.name ?? '', r.invitation_link ?? '']),
  ]);
}
