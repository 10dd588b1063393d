import { localName, type XmlChild, type XmlElement } from '../xml';

// Pure: QTI's elements read alike in 2.1 and 3.0 (`choiceInteraction` and
// `qti-choice-interaction`, `maxChoices` and `max-choices`), and the small
// readings of their text every part of the QTI reader shares.

/** `qti-choice-interaction` and `choiceInteraction` alike → `choiceInteraction`. */
export function qtiName(el: XmlElement): string {
  const local = localName(el);
  return local.startsWith('qti-') ? local.slice(4).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()) : local;
}

/** An attribute by its 2.1 name, or its 3.0 kebab-case spelling. */
export function attr(el: XmlElement, camel: string): string | undefined {
  return el.attrs[camel] ?? el.attrs[camel.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)];
}

export const kids = (el: XmlElement, name?: string): XmlElement[] =>
  el.children.filter((c): c is XmlElement => typeof c !== 'string' && (name === undefined || qtiName(c) === name));
export const kid = (el: XmlElement, name: string): XmlElement | undefined => kids(el, name)[0];

export function* descendants(el: XmlElement): Generator<XmlElement> {
  for (const child of kids(el)) {
    yield child;
    yield* descendants(child);
  }
}

export const textOf = (node: XmlChild): string =>
  typeof node === 'string' ? node : node.children.map(textOf).join('');
export const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();
export const numberOf = (s: string | undefined): number | undefined => {
  if (s === undefined || s.trim() === '') return undefined;
  const n = Number(s.trim());
  return Number.isFinite(n) ? n : undefined;
};
export const round5 = (n: number) => Math.round(n * 1e5) / 1e5;
export const isTrue = (s: string | undefined) => s?.trim().toLowerCase() === 'true';

export const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
export const escapeAttr = (s: string) => escapeText(s).replace(/"/g, '&quot;');
