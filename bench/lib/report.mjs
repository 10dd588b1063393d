// @ts-check
// Plain-text tables (also valid Markdown) for stdout.

export function table(headers, rows, { rightAlign = [] } = {}) {
  const cells = [headers, ...rows].map((r) => r.map((c) => String(c ?? '')));
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r) =>
    '| ' + r.map((c, i) => (rightAlign.includes(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ') + ' |';
  const rule =
    '|' + widths.map((w, i) => (rightAlign.includes(i) ? '-'.repeat(w + 1) + ':' : '-'.repeat(w + 2))).join('|') + '|';
  return [line(cells[0]), rule, ...cells.slice(1).map(line)].join('\n');
}

/** A cost counter as shown in a table: the median, with its range and a `!` when it varied. */
export function costCell(counter) {
  if (!counter) return 'n/a';
  return counter.varies ? `${counter.median} (${counter.min}-${counter.max})!` : String(counter.median);
}

export function statusCell(summary) {
  return Object.entries(summary.statuses)
    .map(
      ([status, n]) =>
        `${Number(status) === summary.expected_status ? '' : 'UNEXPECTED '}${status === '0' ? 'network error' : status}x${n}`,
    )
    .join(' ');
}

export const ms = (x) => (x === null || x === undefined ? 'n/a' : x.toFixed(1));

export function section(title) {
  return `\n## ${title}\n`;
}

/**
 * Every bench ends the same way: its warnings, then its failures or the line that says it passed.
 * Answers the exit code (1 on any failure).
 * @param {string} name the bench, as its verdict names it ("Hall", "Pools bench")
 * @param {{ failures: string[], warnings?: string[], passed: string }} outcome `passed` says what passing proved
 * @returns {number}
 */
export function verdict(name, { failures, warnings = [], passed }) {
  if (warnings.length) {
    console.log(`\nWARNINGS (${warnings.length}):`);
    for (const w of warnings) console.log(`- ${w}`);
  }
  if (failures.length) {
    console.log(`\n${name.toUpperCase()} FAILED (${failures.length}):`);
    for (const f of failures) console.log(`- ${f}`);
    return 1;
  }
  console.log(`\n${name} passed: ${passed}`);
  return 0;
}
