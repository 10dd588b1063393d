// @ts-check
// Reads the V8 CPU profiles `node --cpu-prof` wrote into a folder and sums their
// self time: by package (node_modules/<name>, "ours" for functions/lib, Node's
// own, native) and by frame (function, file and line).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

function packageOf(url) {
  if (!url) return '(native or idle)';
  if (url.startsWith('node:')) return 'node:internal';
  const at = url.lastIndexOf('node_modules/');
  if (at < 0) return url.includes('/functions/lib/') ? 'ours (functions/lib)' : url.includes('/bench/') ? 'bench' : url;
  const parts = url.slice(at + 'node_modules/'.length).split('/');
  return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
}

function frameOf({ functionName, url, lineNumber }) {
  const file = url ? url.replace(/^.*node_modules\//, '').replace(/^.*\/functions\/lib\//, 'functions/lib/') : '';
  return `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
}

/** { byPackage, byFrame }: [{ name, ms, share }] sorted by self time, over every profile in `dir`. */
export function topSelfTime(dir) {
  const byPackage = new Map();
  const byFrame = new Map();
  let total = 0;
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(join(dir, name), 'utf8'));
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const us = profile.timeDeltas[i] ?? 0;
      const { callFrame } = nodes.get(id);
      // Time the process spent waiting is not CPU: leave it out.
      if (callFrame.functionName === '(idle)') return;
      total += us;
      const pkg = packageOf(callFrame.url);
      byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
      const frame = frameOf(callFrame);
      byFrame.set(frame, (byFrame.get(frame) ?? 0) + us);
    });
  }
  const rows = (map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .map(([name, us]) => ({
        name,
        ms: Number((us / 1000).toFixed(1)),
        share: Number(((100 * us) / total).toFixed(1)),
      }));
  return { total_ms: Number((total / 1000).toFixed(1)), byPackage: rows(byPackage), byFrame: rows(byFrame) };
}
