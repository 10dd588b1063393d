// The rules of the check-then-import flow both imports share (a roster's, the question bank's):
// *Check* is a partial dry run, the one reply that reports every row; *Import* sends exactly the
// file and options that were checked, in the chosen mode.

/** What an import does when some rows (questions) cannot be imported. */
export type ImportMode = 'all_or_nothing' | 'partial';

/** The file and options a check was of, as one key: a different file or option needs a new check. */
export const choiceOf = (file: File | null, ...options: string[]): string =>
  file ? [file.name, file.size, file.lastModified, ...options].join('\u0000') : '';

/** Whether a send asks for a partial import: a check always does, so that it reports every row. */
export const sentPartial = (dryRun: boolean, mode: ImportMode): boolean => dryRun || mode === 'partial';

/** What the page knows after its last send: a check or an import, refused whole or not, and how many failed. */
export interface LastSend {
  dryRun: boolean;
  refused: boolean;
  failed: number;
}

/** Whether the chosen mode would refuse the file checked, and whether *Import* may be pressed. */
export function importGate(
  last: LastSend | null,
  mode: ImportMode,
  checked: string,
  choice: string,
): { wouldRefuse: boolean; canImport: boolean } {
  const wouldRefuse = Boolean(last?.dryRun && !last.refused && last.failed > 0 && mode === 'all_or_nothing');
  return { wouldRefuse, canImport: checked !== '' && checked === choice && !wouldRefuse };
}

/** Why *Import* is disabled, as its title; none when it is enabled. */
export function importTitle(gate: { wouldRefuse: boolean; canImport: boolean }): string | undefined {
  if (gate.wouldRefuse) return 'All or nothing would refuse this file';
  return gate.canImport ? undefined : 'Check the file first';
}
