// @ts-check
// The Functions emulator reloads (and cold-starts every worker) whenever
// functions/lib changes. Someone else building in the same working tree during
// a run therefore distorts its latencies; this notices it. So does other work
// on the machine, which cpuBusy() measures before the first request.
import { readdirSync, statSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';

/** Newest modification time of any file under `dir`, in ms (0 if it does not exist). */
export function newestMtime(dir) {
  let newest = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** `changed()` is true if the build output changed since `builtAt` (or since the last `reset()`). */
export function buildWatcher(libDir) {
  let stamp = newestMtime(libDir);
  return {
    changed: () => newestMtime(libDir) !== stamp,
    reset: () => {
      stamp = newestMtime(libDir);
    },
  };
}

/** Share of total CPU time (all cores) spent busy over the next `ms` milliseconds. */
export async function cpuBusy(ms) {
  const totals = () =>
    cpus().reduce(
      (acc, c) => {
        const t = c.times;
        acc.busy += t.user + t.nice + t.sys + t.irq;
        acc.all += t.user + t.nice + t.sys + t.irq + t.idle;
        return acc;
      },
      { busy: 0, all: 0 },
    );
  const before = totals();
  await new Promise((r) => setTimeout(r, ms));
  const after = totals();
  return after.all > before.all ? Number(((after.busy - before.busy) / (after.all - before.all)).toFixed(2)) : 0;
}
