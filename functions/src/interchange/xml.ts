import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { BankFileRefused } from './model';

// Pure: the one way an XML bank file (Moodle XML, QTI) is read. No DOCTYPE and
// no entity declarations are accepted at all (they carry XML bombs and external
// entities); only the five predefined entities and numeric references are decoded,
// here in one pass (the library's own pass leaves numeric references as written).
// The result is a plain element tree in document order.

export interface XmlElement {
  /** The tag name as written, prefix included (`qti-choice-interaction`, `m:math`). */
  name: string;
  attrs: Record<string, string>;
  /** Elements and text (CDATA included) in document order. */
  children: XmlChild[];
}
export type XmlChild = XmlElement | string;

const DOCTYPE = /<!DOCTYPE/i;
const ENTITY = /<!ENTITY/i;
const ATTRS = ':@';
/** Elements nested deeper are refused (the reader's own bound, named here so that the refusal can say it). */
const MAX_XML_DEPTH = 100;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: false,
  htmlEntities: false,
  cdataPropName: '#cdata',
  ignoreDeclaration: true,
  ignorePiTags: true,
  maxNestedTags: MAX_XML_DEPTH,
});

type Ordered = Record<string, unknown>;

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const REFERENCE = /&(?:#x([0-9a-fA-F]+)|#([0-9]+)|(amp|lt|gt|quot|apos));/g;

/** Decodes the predefined entities and character references in one pass (so `&amp;#38;` stays `&#38;`). */
function decodeReferences(text: string): string {
  return text.replace(REFERENCE, (_, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
    if (name) return PREDEFINED[name];
    const code = hex ? parseInt(hex, 16) : Number(dec);
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\uFFFD';
  });
}

const decodedAttrs = (attrs: Record<string, string> | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(attrs ?? {}).map(([k, v]) => [k, decodeReferences(String(v))]));

function toChildren(nodes: Ordered[], cdata = false): XmlChild[] {
  const children: XmlChild[] = [];
  for (const node of nodes) {
    for (const key of Object.keys(node)) {
      if (key === ATTRS) continue;
      const value = node[key];
      if (key === '#text') children.push(cdata ? String(value) : decodeReferences(String(value)));
      else if (key === '#cdata')
        children.push(...toChildren(value as Ordered[], true).map((c) => (typeof c === 'string' ? c : '')));
      else if (key === '#comment') continue;
      else
        children.push({
          name: key,
          attrs: decodedAttrs(node[ATTRS] as Record<string, string> | undefined),
          children: toChildren(value as Ordered[]),
        });
    }
  }
  return children;
}

/** The reader's tree of well-formed XML; what the reader itself refuses (elements nested too deep) is a refusal of the file, not a crash. */
function parseOrdered(text: string, where: string): Ordered[] {
  try {
    return parser.parse(text) as Ordered[];
  } catch (err) {
    const nested = /nested/i.test((err as Error).message);
    throw new BankFileRefused(
      nested
        ? `${where}: elements are nested more than ${MAX_XML_DEPTH} deep`
        : `${where}: not readable XML: ${(err as Error).message}`,
      where,
    );
  }
}

/** Parses XML text into its root element, refusing DOCTYPE and entity declarations and malformed XML with BankFileRefused. */
export function parseXml(text: string, where = 'the file'): XmlElement {
  if (DOCTYPE.test(text) || ENTITY.test(text))
    throw new BankFileRefused(
      `${where}: a DOCTYPE or entity declaration is not accepted (it can expand without bound or read other files)`,
      where,
    );
  const valid = XMLValidator.validate(text);
  if (valid !== true)
    throw new BankFileRefused(`${where}: not well-formed XML at line ${valid.err.line}: ${valid.err.msg}`, where);
  const root = toChildren(parseOrdered(text, where)).find((c): c is XmlElement => typeof c !== 'string');
  if (!root) throw new BankFileRefused(`${where}: no root element`, where);
  return root;
}

/** The tag name without its namespace prefix. */
export const localName = (element: XmlElement): string => element.name.slice(element.name.indexOf(':') + 1);

/** Child elements, optionally only those of one local name. */
export const elements = (parent: XmlElement, name?: string): XmlElement[] =>
  parent.children.filter(
    (c): c is XmlElement => typeof c !== 'string' && (name === undefined || localName(c) === name),
  );

/** The first child element of that local name. */
export const element = (parent: XmlElement, name: string): XmlElement | undefined => elements(parent, name)[0];

/** All the text inside, tags dropped. */
export const textOf = (node: XmlChild): string =>
  typeof node === 'string' ? node : node.children.map(textOf).join('');

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string) => escapeText(s).replace(/"/g, '&quot;');

/** The markup of the children, written back as XML (for HTML carried as XHTML, e.g. a QTI item body). */
export function innerXml(parent: XmlElement): string {
  return parent.children.map(outerXml).join('');
}

export function outerXml(node: XmlChild): string {
  if (typeof node === 'string') return escapeText(node);
  const attrs = Object.entries(node.attrs)
    .map(([k, v]) => ` ${k}="${escapeAttr(v)}"`)
    .join('');
  return node.children.length === 0
    ? `<${node.name}${attrs}/>`
    : `<${node.name}${attrs}>${innerXml(node)}</${node.name}>`;
}

/** HTML's void elements: written without a closing tag (`<img …>`); any other element always has one. */
export const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/**
 * The children as HTML (for HTML written as XML elements, e.g. a Moodle XML `<text>`): an empty
 * element that is not void gets its closing tag, which an HTML parser needs (`<span/>` would open
 * a span holding the rest); names lose their namespace prefix; namespace declarations are left out.
 */
export function innerHtml(parent: XmlElement): string {
  return parent.children.map(outerHtml).join('');
}

function outerHtml(node: XmlChild): string {
  if (typeof node === 'string') return escapeText(node);
  const name = localName(node).toLowerCase();
  const attrs = Object.entries(node.attrs)
    .filter(([k]) => k !== 'xmlns' && !k.startsWith('xmlns:'))
    .map(([k, v]) => ` ${k.slice(k.indexOf(':') + 1)}="${escapeAttr(v)}"`)
    .join('');
  return VOID_ELEMENTS.has(name) ? `<${name}${attrs}>` : `<${name}${attrs}>${innerHtml(node)}</${name}>`;
}
