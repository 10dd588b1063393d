import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { ICruiseResult, IForbiddenRuleType } from 'dependency-cruiser';

// The folders' walls (.dependency-cruiser.cjs): every folder entered through its index.ts,
// the kernel and the pure folders below the features, the pairs docs/architecture.md
// forbids, and no cycle between folders. Each rule is also run on a small tree under
// test/fixtures/architecture/ that breaks it, to show it would catch the break.

interface Layout {
  kernel: string[];
  sideDoors?: string[];
  pure: string[];
  pureBelow?: Record<string, string[]>;
  forbidden: { name: string }[];
}
interface Rules {
  rulesFor(root: string, layout: Layout): IForbiddenRuleType[];
  functionsLayout: Layout;
  webLayout: Layout;
  options: object;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const rules = require('../../.dependency-cruiser.cjs') as Rules;

const repo = join(__dirname, '..', '..');
const fixtures = join(__dirname, '..', 'fixtures', 'architecture');

interface Cruised {
  /** The rules broken, readably: each rule and why, then its breaking imports, from → to. */
  violations: string[];
  rulesBroken: Set<string>;
  /** Each cycle between folders (a root's file counts as its own folder), readably. */
  cycles: string[];
}

/** Cruises root (a path from the repository's root) with the rules made for layout. */
async function cruiseRoot(root: string, layout: Layout): Promise<Cruised> {
  const forbidden = rules.rulesFor(root, layout);
  const { cruise } = await import('dependency-cruiser');
  const { output } = await cruise([root], {
    ...rules.options,
    validate: true,
    ruleSet: { forbidden },
    baseDir: repo,
  });
  const result = output as ICruiseResult;
  return {
    violations: readably(forbidden, result),
    rulesBroken: new Set(result.summary.violations.map((v) => v.rule.name)),
    cycles: folderCycles(root, result),
  };
}

/** The violations by rule: the rule's name and why it holds, then each import that breaks it (from → to). */
function readably(forbidden: IForbiddenRuleType[], result: ICruiseResult): string[] {
  return forbidden.flatMap((rule) => {
    const broken = result.summary.violations.filter((v) => v.rule.name === rule.name);
    return broken.length === 0
      ? []
      : [`${rule.name} (${rule.comment}):`, ...broken.map((v) => `  ${v.from} → ${v.to}`)];
  });
}

/** The folder a file lies in under root, or the file itself for a file at root; undefined outside root. */
function folderOf(root: string, path: string): string | undefined {
  if (!path.startsWith(`${root}/`)) return undefined;
  return path.slice(root.length + 1).split('/')[0];
}

/** folder → the folders its files import (static, type-only, dynamic and re-exports alike), with one import each as evidence. */
function folderGraph(root: string, result: ICruiseResult): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const module of result.modules) {
    const from = folderOf(root, module.source);
    if (!from) continue;
    const edges = graph.get(from) ?? new Map<string, string>();
    graph.set(from, edges);
    for (const dependency of module.dependencies) {
      const to = folderOf(root, dependency.resolved);
      if (to && to !== from && !edges.has(to)) edges.set(to, `${module.source} imports ${dependency.module}`);
    }
  }
  return graph;
}

/** Every elementary cycle of the folder graph, each once, starting from its smallest folder name, readably. */
function folderCycles(root: string, result: ICruiseResult): string[] {
  const graph = folderGraph(root, result);
  const cycles: string[][] = [];
  for (const start of [...graph.keys()].sort()) {
    // Only cycles whose smallest node is `start`, so each is found once.
    const walk = (node: string, path: string[]): void => {
      for (const next of [...(graph.get(node)?.keys() ?? [])].sort()) {
        if (next === start) cycles.push([...path]);
        else if (next > start && !path.includes(next)) walk(next, [...path, next]);
      }
    };
    walk(start, [start]);
  }
  return cycles.map((cycle) =>
    [...cycle, cycle[0]]
      .slice(1)
      .map((to, i) => `${cycle[i]} → ${to} (${graph.get(cycle[i])!.get(to)})`)
      .join(', '),
  );
}

describe('dependency rules', function () {
  this.timeout(120_000);

  for (const [root, layout] of [
    ['functions/src', rules.functionsLayout],
    ['web/src', rules.webLayout],
  ] as const) {
    describe(root, () => {
      let cruised: Cruised;
      before(async () => {
        cruised = await cruiseRoot(root, layout);
      });

      it('breaks no rule', () => {
        assert.ok(cruised.violations.length === 0, `\n${cruised.violations.join('\n')}`);
      });

      it('has no cycle between its folders', () => {
        assert.ok(cruised.cycles.length === 0, `\n${cruised.cycles.join('\n')}`);
      });
    });
  }

  describe('each rule catches a planted break (test/fixtures/architecture)', () => {
    const planted = readdirSync(fixtures, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    const ruleNames = new Set([
      ...rules.rulesFor('functions/src', rules.functionsLayout).map((rule) => rule.name),
      'folder-cycle',
    ]);

    it('every rule has its planted tree', () => {
      assert.deepEqual(planted, [...ruleNames].sort());
    });

    for (const rule of planted) {
      it(`${rule}: reported, and nothing else`, async () => {
        const root = relative(repo, join(fixtures, rule));
        const cruised = await cruiseRoot(root, rules.functionsLayout);
        const broken = [...cruised.rulesBroken, ...(cruised.cycles.length > 0 ? ['folder-cycle'] : [])];
        assert.deepEqual(broken, [rule], [...cruised.violations, ...cruised.cycles].join('\n'));
      });
    }
  });
});
