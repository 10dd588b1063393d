// Pure: the one rule every CSV the app writes follows (the invitation links, the question
// template), the service's own: functions/src/analytics/resultsRows.ts writes the results export
// with csv-stringify and its CSV_OPTIONS. csv-stringify is not a dependency of the web app, so this
// is its rule written once here, and test/web/csv.test.ts holds it to the library's output:
// - formula escaping (csv-stringify's `escape_formulas`): a cell beginning with =, +, -, @, tab or
//   carriage return, or the full-width ＝ ＋ － ＠, gets a leading single quote, so a spreadsheet
//   shows it instead of evaluating it (every cell here is text: no number keeps its minus);
// - a cell holding a comma, a double quote, a CR or an LF is quoted, its quotes doubled (a reader
//   takes a lone CR for a line end too: `quote_record_delimiter`);
// - each record ends with "\n" (`record_delimiter: 'unix'`), no BOM.

const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell as the rule writes it. */
function csvCell(value: string): string {
  const shown = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(value) ? `"${shown.replaceAll('"', '""')}"` : shown;
}

/** The CSV text of `rows`, the header (when there is one) the first, each record ended by "\n". */
export function csvText(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => `${row.map(csvCell).join(',')}\n`).join('');
}
