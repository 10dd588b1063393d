import { csvText } from '../../csv';
import type { IssuedInvitation } from '../../invitationApi';

// Pure: the invitations for students who cannot sign in yet, as a CSV for a spreadsheet (with a
// UTF-8 BOM, so Excel reads accented names right) and as the HTML of a printable sheet.

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

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * A page of slips to print and cut: one per student with its name, class, link and expiry, cut
 * lines between them, sized for A4 (and letter); no slip is split across pages.
 */
export function invitationSheetHtml(rows: readonly IssuedInvitation[], className: string): string {
  const slips = rows
    .map(
      (r) => `<section class="slip">
  <h2>${escapeHtml(r.name ?? r.email)}</h2>
  <p>Class: ${escapeHtml(className)} · ${escapeHtml(r.email)}</p>
  <p>Open this link to choose your password (it works once):</p>
  <p class="link">${escapeHtml(r.link)}</p>
  <p>Valid until ${escapeHtml(new Date(r.expires_at).toLocaleDateString())}</p>
</section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Invitations · ${escapeHtml(className)}</title>
<style>
  @page { size: A4; margin: 12mm; }
  body { font: 12pt/1.4 system-ui, sans-serif; color: #000; margin: 0; }
  .slip { border-bottom: 1px dashed #000; padding: 6mm 2mm; break-inside: avoid; page-break-inside: avoid; }
  .slip h2 { font-size: 14pt; margin: 0 0 2mm; }
  .slip p { margin: 1mm 0; }
  .link { font-family: ui-monospace, monospace; font-size: 10pt; word-break: break-all; }
  @media screen { body { max-width: 186mm; margin: 0 auto; } }
</style></head>
<body>
<h1 class="sr-only" style="font-size:12pt">Invitations for ${escapeHtml(className)}: cut along the dashed lines</h1>
${slips}
</body></html>`;
}
