import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

// The features' dependency direction: analytics reads attempts, never the other
// way; what a submit does to analytics is handed to attempts by app.ts
// (SubmissionEffects), and shared figures live in shared/ (scores.ts).

const srcDir = join(__dirname, '..', '..', 'functions', 'src');
const attemptsDir = join(srcDir, 'attempts');

describe('attempts/ dependencies', () => {
  it('no file in functions/src/attempts imports from analytics/', () => {
    const offending = readdirSync(attemptsDir)
      .filter((name) => name.endsWith('.ts'))
      .flatMap((name) =>
        readFileSync(join(attemptsDir, name), 'utf8')
          .split('\n')
          .filter(
            (line) => /\bfrom\s+['"]\.\.\/analytics\//.test(line) || /import\(\s*['"]\.\.\/analytics\//.test(line),
          )
          .map((line) => `${name}: ${line.trim()}`),
      );
    assert.deepEqual(offending, []);
  });
});

/** Every .ts file under dir, as absolute paths. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The top-level folder of functions/src a path lies in; undefined for the files at its root (index.ts, app.ts, config.ts). */
function folderOf(path: string): string | undefined {
  const parts = relative(srcDir, path).split(sep);
  return parts.length > 1 && parts[0] !== '..' ? parts[0] : undefined;
}

/** folder → the folders its files import (static, type-only, dynamic and re-exports alike), with one importing line each as evidence. */
function folderGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(srcDir)) {
    const from = folderOf(file);
    if (!from) continue;
    const edges = graph.get(from) ?? new Map<string, string>();
    graph.set(from, edges);
    for (const match of readFileSync(file, 'utf8').matchAll(
      /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g,
    )) {
      const to = folderOf(resolve(dirname(file), match[1]));
      if (to && to !== from && !edges.has(to)) edges.set(to, `${relative(srcDir, file)} imports ${match[1]}`);
    }
  }
  return graph;
}

/** Every elementary cycle of the graph, each once, starting from its smallest folder name. */
function cyclesOf(graph: Map<string, Map<string, string>>): string[][] {
  const cycles: string[][] = [];
  const nodes = [...graph.keys()].sort();
  for (const start of nodes) {
    // Only cycles whose smallest node is `start`, so each is found once.
    const walk = (node: string, path: string[]): void => {
      for (const next of [...(graph.get(node)?.keys() ?? [])].sort()) {
        if (next === start) cycles.push([...path]);
        else if (next > start && !path.includes(next)) walk(next, [...path, next]);
      }
    };
    walk(start, [start]);
  }
  return cycles;
}

describe('functions/src folder dependencies', () => {
  it('no two top-level folders of functions/src import each other, directly or through others', () => {
    const graph = folderGraph();
    const cycles = cyclesOf(graph).map((cycle) =>
      [...cycle, cycle[0]]
        .slice(1)
        .map((to, i) => `${cycle[i]} → ${to} (${graph.get(cycle[i])!.get(to)})`)
        .join(', '),
    );
    assert.deepEqual(cycles, []);
  });
});

describe('sittingRules/ dependencies', () => {
  it('the pure sitting rules import no feature folder, only shared/', () => {
    const reached = [...(folderGraph().get('sittingRules')?.keys() ?? [])].filter((folder) => folder !== 'shared');
    assert.deepEqual(reached, []);
  });
});
