// Pure: whether a sitting-wide extension (a test's, or one class's of it) reaches one attempt in progress.

export type ExtensionReach = 'extend' | 'started_after' | 'other_class' | 'at_bound';

export interface ExtensionCase {
  /** When the attempt and the extension's sweep were committed (Firestore's clock). */
  attemptCreatedMs: number;
  sweepCreatedMs: number;
  /** The class the extension is for; null: every attempt of the test. */
  classId: string | null;
  /** The classes the attempt started in (absent on a Guest's, or one from before classes). */
  attemptClassIds: readonly string[] | undefined;
  /** Whether the attempt holds this extension already (a resumed sweep), and how many it holds. */
  holdsIt: boolean;
  held: number;
  max: number;
}

/**
 * An attempt started after the press is not this sitting's; a class's extension reaches only the
 * attempts that started in that class (as the live view's class filter shows them); an attempt at
 * its bound of extensions is passed by rather than failing the whole sweep.
 */
export function extensionReach(c: ExtensionCase): ExtensionReach {
  if (c.attemptCreatedMs > c.sweepCreatedMs) return 'started_after';
  if (c.classId !== null && !(c.attemptClassIds ?? []).includes(c.classId)) return 'other_class';
  if (!c.holdsIt && c.held >= c.max) return 'at_bound';
  return 'extend';
}
