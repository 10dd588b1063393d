import assert from 'node:assert/strict';
import {
  markDuplicates,
  normalizeEmail,
  parseRosterHeader,
  rosterCounts,
  rosterReport,
  rosterRow,
  rosterUid,
  type RosterHeader,
} from '../../functions/src/users/rosterRows';

// Pure: a roster's CSV records → rows, the duplicates, the report; no emulator needed.

const columns = (cells: string[]): RosterHeader => {
  const header = parseRosterHeader(cells);
  assert.ok('columns' in header, JSON.stringify(header));
  return header.columns;
};

describe('rosterRows.parseRosterHeader', () => {
  it('takes email and name in any order and any case, display_name for name, and blank trailing cells', () => {
    assert.deepEqual(columns(['email', 'name']), ['email', 'name']);
    assert.deepEqual(columns([' Name ', 'EMAIL']), ['name', 'email']);
    assert.deepEqual(columns(['email', 'Display_Name', '', '']), ['email', 'name', null, null]);
  });

  it('refuses a missing column, an unknown one, a repeated one and a blank one, naming each', () => {
    const error = (cells: string[]) => {
      const header = parseRosterHeader(cells);
      assert.ok('error' in header);
      return header.error;
    };
    assert.match(error(['email']), /missing column name/);
    assert.match(
      error(['mail', 'fullname']),
      /unknown column "mail"; unknown column "fullname"; missing columns email, name/,
    );
    assert.match(error(['email', 'name', 'display_name']), /column "name" appears twice/);
    assert.match(error(['email', '', 'name']), /column 2 has no name/);
  });
});

describe('rosterRows.rosterRow', () => {
  const cols = columns(['email', 'name']);

  it('lower-cases and trims the email, trims the name, and makes a blank name null', () => {
    assert.deepEqual(rosterRow(2, cols, ['  Ada.Lovelace@Example.ORG ', '  Ada Lovelace ']), {
      ok: true,
      line: 2,
      email: 'ada.lovelace@example.org',
      name: 'Ada Lovelace',
    });
    assert.deepEqual(rosterRow(3, cols, ['b@example.org', '   ']), {
      ok: true,
      line: 3,
      email: 'b@example.org',
      name: null,
    });
  });

  it('marks a blank email, an invalid one and a name over 100 characters as errors', () => {
    const message = (cells: string[]) => {
      const row = rosterRow(4, cols, cells);
      assert.ok(!row.ok);
      return row.message;
    };
    assert.equal(message(['', 'Nobody']), 'email is required');
    assert.equal(message(['not an email', 'Nobody']), 'email is not a valid email address');
    assert.equal(message(['a@b', 'Nobody']), 'email is not a valid email address');
    assert.equal(message(['c@example.org', 'x'.repeat(101)]), 'name is longer than 100 characters');
  });
});

describe('rosterRows.markDuplicates', () => {
  const cols = columns(['email', 'name']);

  it('keeps the first row of an email and makes every later one an error naming the first line, case aside', () => {
    const rows = markDuplicates([
      rosterRow(2, cols, ['a@example.org', 'A']),
      rosterRow(3, cols, ['b@example.org', 'B']),
      rosterRow(4, cols, ['A@Example.org', 'A again']),
      rosterRow(5, cols, ['a@example.org', 'A thrice']),
    ]);
    assert.deepEqual(
      rows.map((r) => (r.ok ? 'ok' : r.message)),
      ['ok', 'ok', 'email repeats line 2', 'email repeats line 2'],
    );
  });

  it('leaves a row already in error with its own message', () => {
    const rows = markDuplicates([
      rosterRow(2, cols, ['a@example.org', 'A']),
      rosterRow(3, cols, ['a@example.org', 'x'.repeat(101)]),
    ]);
    assert.ok(!rows[1].ok);
    assert.match(rows[1].message, /longer than 100/);
  });
});

describe('rosterRows.rosterReport and rosterCounts', () => {
  it('reports every row in file order with its outcome, and counts each status', () => {
    const cols = columns(['email', 'name']);
    const rows = markDuplicates([
      rosterRow(2, cols, ['new@example.org', 'New']),
      rosterRow(3, cols, ['old@example.org', '']),
      rosterRow(5, cols, ['bad', 'Bad']),
      rosterRow(6, cols, ['in@example.org', 'In']),
      rosterRow(7, cols, ['admin@example.org', 'Admin']),
    ]);
    const report = rosterReport(rows, (row) =>
      row.email === 'new@example.org'
        ? { status: 'created', uid: 'u1' }
        : row.email === 'old@example.org'
          ? { status: 'added', uid: 'u2' }
          : row.email === 'in@example.org'
            ? { status: 'already_member', uid: 'u3' }
            : { status: 'error', message: 'not a student' },
    );
    assert.deepEqual(report, [
      { line: 2, email: 'new@example.org', name: 'New', status: 'created', uid: 'u1' },
      { line: 3, email: 'old@example.org', name: null, status: 'added', uid: 'u2' },
      { line: 5, email: 'bad', name: 'Bad', status: 'error', message: 'email is not a valid email address' },
      { line: 6, email: 'in@example.org', name: 'In', status: 'already_member', uid: 'u3' },
      { line: 7, email: 'admin@example.org', name: 'Admin', status: 'error', message: 'not a student' },
    ]);
    assert.deepEqual(rosterCounts(report), { rows_total: 5, created: 1, added: 1, already_members: 1, failed: 2 });
  });
});

describe('rosterRows.rosterUid', () => {
  it('gives one email of one organization always the same uid, and another organization another', () => {
    assert.equal(rosterUid('c1', 'a@example.org'), rosterUid('c1', 'a@example.org'));
    assert.notEqual(rosterUid('c1', 'a@example.org'), rosterUid('c2', 'a@example.org'));
    assert.match(rosterUid('c1', normalizeEmail(' A@example.org')), /^[A-Za-z0-9_-]{28}$/);
  });
});
