// @ts-check
// A serving process's memory over one request, from Linux's /proc.
import { readFileSync, writeFileSync } from 'node:fs';

/** The process's resident memory now and its peak since the last reset, in MB (Linux /proc). */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/**
 * Watches a process's peak resident memory over one request: its growth above what it held before.
 * Writing 5 to /proc/<pid>/clear_refs resets the kernel's peak (VmHWM) to the present size; where that
 * write is refused or has no effect, VmRSS is sampled every 20 ms instead (a peak between samples is missed).
 */
export function peakWatch(pid) {
  const before = memoryOf(pid);
  let reset = false;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    const now = memoryOf(pid);
    reset = now.peakMb <= now.rssMb + 1;
  } catch {
    // not permitted here: sampled below
  }
  let sampled = before.rssMb;
  const timer = reset
    ? undefined
    : setInterval(() => {
        sampled = Math.max(sampled, memoryOf(pid).rssMb);
      }, 20);
  return {
    method: reset ? 'VmHWM reset through clear_refs' : 'VmRSS sampled every 20 ms (clear_refs refused)',
    /** The growth in MB. */
    stop() {
      clearInterval(timer);
      const after = memoryOf(pid);
      return Math.max(0, (reset ? after.peakMb : Math.max(sampled, after.rssMb)) - before.rssMb);
    },
  };
}
