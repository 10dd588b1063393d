import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import GithubSlugger from 'github-slugger';

const root = resolve(__dirname, '..', '..');
const pages = [
  'README.md',
  'bench/README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The anchors GitHub makes of a page's headings. */
function anchorsOf(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  for (const line of markdown.replace(/```[\s\S]*?```/g, '').split('\n')) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) anchors.add(slugger.slug(heading[1].replace(/`/g, '').trim()));
  }
  return anchors;
}

/** Every link of a page, outside its code blocks: `[text](target)`. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
}

describe('the documentation’s links', () => {
  for (const page of pages) {
    const text = readFileSync(join(root, page), 'utf8');
    it(`${page}: every relative link names a file of the repository, and every anchor a heading of its page`, () => {
      const broken: string[] = [];
      for (const link of linksOf(text)) {
        if (/^[a-z]+:/i.test(link)) continue; // https:, mailto:
        const [path, anchor] = link.split('#');
        const target = path ? resolve(root, dirname(page), path) : join(root, page);
        if (relative(root, target).startsWith('..') || relative(root, target).split(sep)[0] === '..') {
          broken.push(`${link}: outside the repository`);
          continue;
        }
        if (!existsSync(target)) {
          broken.push(`${link}: no such file`);
          continue;
        }
        if (anchor && target.endsWith('.md') && statSync(target).isFile()) {
          if (!anchorsOf(readFileSync(target, 'utf8')).has(anchor)) broken.push(`${link}: no such heading`);
        }
      }
      assert.deepEqual(broken, []);
    });

    it(`${page} cites no file outside the repository`, () => {
      const outside = text.split('\n').filter((line) => /\.\.\/shared\b|CONTRACT\.md|service-interface\.md/.test(line));
      assert.deepEqual(outside, []);
    });
  }
});
