import { stringify } from 'csv-stringify/browser/esm/sync';

// Pure: the one rule every CSV the app writes follows (the invitation links, the question
// template), the service's own: csv-stringify with the options of
// functions/src/analytics/resultsRows.ts CSV_OPTIONS, which writes the results export
// (test/web/csv.test.ts holds the two to the same output):
// - formula escaping: a cell beginning with =, +, -, @, tab or carriage return (or their full-width
//   forms) gets a leading single quote, so a spreadsheet shows it instead of evaluating it;
// - a cell holding a comma, a double quote, a CR or an LF is quoted, its quotes doubled (a reader
//   takes a lone CR for a line end too);
// - each record ends with "\n", no BOM.
const CSV_OPTIONS = {
  bom: false,
  escape_formulas: true,
  record_delimiter: 'unix',
  quote_record_delimiter: true,
} as const;

/** The CSV text of `rows`, the header (when there is one) the first, each record ended by "\n". */
export function csvText(rows: readonly (readonly string[])[]): string {
  return stringify(
    rows.map((row) => [...row]),
    CSV_OPTIONS,
  );
}
