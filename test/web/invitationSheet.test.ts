import assert from 'node:assert/strict';
import { invitationRowsCsv } from '../../web/src/admin/classes/invitationSheet';

// Pure: the invitations CSV (UTF-8 BOM for Excel, the app's CSV rule).

const rows = [
  {
    uid: 'u1',
    name: 'Zoë Ålund',
    email: 'zoe@school.example',
    link: 'https://x.example/invitation#token=abc',
    expires_at: '2026-12-14T10:00:00.000Z',
  },
  {
    uid: 'u2',
    name: '=HYPERLINK("x")',
    email: 'b@school.example',
    link: 'https://x.example/invitation#token=def',
    expires_at: '2026-12-14T10:00:00.000Z',
  },
];

describe('the invitations CSV', () => {
  it('starts with a UTF-8 BOM so Excel opens accents right, then the header and a row per student', () => {
    const csv = invitationRowsCsv(rows, '9C');
    assert.ok(csv.startsWith('\uFEFFname,email,class,invitation_link,expires_at\n'));
    assert.ok(
      csv.includes('Zoë Ålund,zoe@school.example,9C,https://x.example/invitation#token=abc,2026-12-14T10:00:00.000Z\n'),
    );
  });
  it('escapes a name a spreadsheet would evaluate', () => {
    assert.ok(invitationRowsCsv(rows, '9C').includes(`"'=HYPERLINK(""x"")"`));
  });
});
