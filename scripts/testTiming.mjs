// The timing report of `npm test`: test/support/timing.ts appends one JSON line per test file
// (its wall time, hooks included); this sums them per top-level test folder, prints the table
// and the slowest files, and writes the whole as JSON beside the lines.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const minutes = (ms) => (ms / 60_000).toFixed(1);

/** The top-level folder under test/ a file belongs to ("test" for a file directly in it). */
const folderOf = (file) => {
  const parts = file.split('/');
  return parts.length > 2 ? parts[1] : parts[0];
};

/**
 * @param {string} linesFile TEST_TIMING_FILE
 * @param {{ name: string, files: number, jobs: number | string, ms: number }[]} groups how the run was split (jobs: files at a time)
 */
export function reportTiming(linesFile, groups) {
  if (!existsSync(linesFile)) return;
  /** @type {{ file: string, ms: number, tests: number, failed: number, pid: number }[]} */
  const files = readFileSync(linesFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  /** @type {Map<string, { folder: string, files: number, tests: number, ms: number }>} */
  const folders = new Map();
  for (const f of files) {
    const folder = folderOf(f.file);
    const row = folders.get(folder) ?? { folder, files: 0, tests: 0, ms: 0 };
    row.files += 1;
    row.tests += f.tests;
    row.ms += f.ms;
    folders.set(folder, row);
  }
  const rows = [...folders.values()].sort((a, b) => b.ms - a.ms);
  const total = rows.reduce(
    (sum, r) => ({ files: sum.files + r.files, tests: sum.tests + r.tests, ms: sum.ms + r.ms }),
    {
      files: 0,
      tests: 0,
      ms: 0,
    },
  );
  const line = (cells) =>
    `  ${cells[0].padEnd(14)}${cells
      .slice(1)
      .map((c) => String(c).padStart(8))
      .join('')}`;
  console.log('\nTime per test folder (minutes of file wall time, set-up included; parallel files overlap):');
  console.log(line(['folder', 'files', 'tests', 'minutes']));
  for (const r of rows) console.log(line([r.folder, r.files, r.tests, minutes(r.ms)]));
  console.log(line(['all', total.files, total.tests, minutes(total.ms)]));
  console.log('Slowest files:');
  for (const f of [...files].sort((a, b) => b.ms - a.ms).slice(0, 10))
    console.log(`  ${String(Math.round(f.ms / 1000)).padStart(5)} s  ${f.file}`);
  console.log('Groups (wall time):');
  for (const g of groups)
    console.log(
      `  ${g.name.padEnd(10)} ${String(g.files).padStart(4)} files, ${g.jobs} at a time: ${minutes(g.ms)} min`,
    );
  const json = linesFile.replace(/\.jsonl$/, '') + '.json';
  writeFileSync(json, JSON.stringify({ groups, folders: rows, files }, null, 2));
  console.log(`Timing per file: ${json}`);
}
