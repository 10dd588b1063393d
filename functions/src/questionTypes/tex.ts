import type Temml from 'temml';

// Pure: TeX written in an HTML text (`\( … \)` inline, `$$ … $$` and `\[ … \]` as a block) made
// MathML before it is stored, so a taker's page shows the formula with no script of its own (browsers
// render MathML Core). Temml writes MathML Core; it is loaded on the first text holding a delimiter,
// never with the schemas (a taker's save never converts). TeX that does not parse is kept as written.

let temml: typeof Temml | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const converter = (): typeof Temml => (temml ??= require('temml') as typeof Temml);

/** `$$ … $$` or `\[ … \]` (display), `\( … \)` (inline): the first group is what is between. */
const TEX = /\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\]|\\\(([\s\S]+?)\\\)/g;
const HAS_TEX = /\$\$|\\\[|\\\(/;
/** A tag, or a comment: what splits an HTML text into the runs of text TeX is looked for in. */
const TAG = /(<!--[\s\S]*?-->|<[^>]*>)/;
/** Inside these, what looks like TeX is not: a formula already, an annotation of one, code. */
const VERBATIM = new Set(['math', 'code', 'pre']);
/** Temml's own styling (its classes name its stylesheet, which a taker's page does not load). */
const STYLING = / (class|style)="[^"]*"/g;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
/** The TeX as its author wrote it: HTML's escapes undone (`a &lt; b` is `a < b`). */
const unescaped = (html: string): string =>
  html.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });

const shortTex = (tex: string): string => (tex.length > 40 ? `${tex.slice(0, 40)}…` : tex);

/** One formula as MathML, or why it cannot be read. */
function formula(tex: string, display: boolean): { mathml: string } | { problem: string } {
  try {
    const mathml = converter().renderToString(unescaped(tex).trim(), {
      displayMode: display,
      annotate: true,
      throwOnError: true,
      trust: false,
    });
    return { mathml: mathml.replace(STYLING, '') };
  } catch (error) {
    // Temml's message goes on to draw the TeX with the place underlined: its first line says it.
    const reason = (error instanceof Error ? error.message : String(error))
      .split('\n')[0]
      .trim()
      .replace(/ at position \d+:?$/, '');
    return { problem: `The TeX "${shortTex(tex.trim())}" cannot be read (${reason}): kept as written` };
  }
}

/** The runs of text outside tags made MathML where they hold TeX. */
function convertRun(text: string, problems: string[]): string {
  return text.replace(TEX, (whole, block?: string, bracket?: string, inline?: string) => {
    const tex = block ?? bracket ?? inline ?? '';
    if (tex.trim().length === 0) return whole;
    const made = formula(tex, inline === undefined);
    if ('problem' in made) {
      problems.push(made.problem);
      return whole;
    }
    return made.mathml;
  });
}

/**
 * The HTML with each TeX formula in its text made MathML, and a sentence for each one that could
 * not be read (kept as written). TeX inside a tag, `<math>`, `<code>` or `<pre>` is left alone,
 * and so is a formula that spans tags.
 */
export function texToMathMl(html: string): { html: string; problems: string[] } {
  if (!HAS_TEX.test(html)) return { html, problems: [] };
  const problems: string[] = [];
  const open: string[] = [];
  const pieces = html.split(TAG).map((piece) => {
    if (piece.startsWith('<')) {
      const tag = /^<(\/?)(?:[\w.-]+:)?([a-z][\w-]*)/i.exec(piece);
      if (tag && VERBATIM.has(tag[2].toLowerCase())) {
        if (tag[1]) open.pop();
        else if (!piece.endsWith('/>')) open.push(tag[2]);
      }
      return piece;
    }
    return open.length > 0 ? piece : convertRun(piece, problems);
  });
  return { html: pieces.join(''), problems };
}
