import { addSums, emptySums, type VersionSums } from './statistics';

// Pure: a version's running sums per class. An attempt counts in the classes
// it was in when it started (its `class_ids` snapshot, never the live
// profile), so a student who changes class later does not move figures
// already kept; one started before classes existed counts in none.

/** The classes an attempt counts in, each once. */
export const classesOf = (attempt: { class_ids?: readonly string[] }): string[] => [
  ...new Set(attempt.class_ids ?? []),
];

/**
 * Per class, the sums of `sumsOf(item)` over the items whose attempt is in it:
 * one entry per class met, so a batch writes once per class, whatever its size.
 */
export function sumsByClass<T>(
  items: readonly T[],
  attemptOf: (item: T) => { class_ids?: readonly string[] },
  sumsOf: (item: T) => VersionSums,
): Map<string, VersionSums> {
  const out = new Map<string, VersionSums>();
  for (const item of items) {
    const classes = classesOf(attemptOf(item));
    if (classes.length === 0) continue;
    const sums = sumsOf(item);
    for (const classId of classes) out.set(classId, addSums(out.get(classId) ?? emptySums(), sums));
  }
  return out;
}

/** The class a class-shard document id (`{classId}~{shard}` or `{classId}~{block}-{shard}`) belongs to. */
export const classOfShardId = (docId: string): string => docId.slice(0, docId.lastIndexOf('~'));
