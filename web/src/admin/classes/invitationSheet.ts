import { csvText } from '../../csv';
import type { IssuedInvitation } from '../../invitationApi';

// Pure: the invitations for students who cannot sign in yet, as a CSV for a spreadsheet (with a
// UTF-8 BOM, so Excel reads accented names right). The printable sheet is ClassInvitations' slips.

const BOM = '\uFEFF';

/** name, email, class, link, expires_at: for a mail merge, opened in Excel as typed. */
export function invitationRowsCsv(rows: readonly IssuedInvitation[], className: string): string {
  return (
    BOM +
    csvText([
      ['name', 'email', 'class', 'invitation_link', 'expires_at'],
      ...rows.map((r) => [r.name ?? '', r.email, className, r.link, r.expires_at]),
    ])
  );
}
