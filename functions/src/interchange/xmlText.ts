import sanitizeHtml from 'sanitize-html';
import { XMLValidator } from 'fast-xml-parser';
import { VOID_ELEMENTS } from './xml';

// Pure: the one way the exporters write XML text. Every text and attribute
// value passes through escapeText / escapeAttr; element strings are built by
// `element` only. No DOCTYPE is ever written.

// Characters XML 1.0 cannot carry at all (C0 controls but tab, LF, CR; lone surrogates; U+FFFE/U+FFFF).
const NOT_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text with what XML cannot hold replaced by U+FFFD. */
export const xmlSafe = (s: string): string => s.replace(NOT_XML, '\ufffd');

/** Whether xmlSafe would change the text (for a note saying so). */
export const hasNotXml = (s: string): boolean => new RegExp(NOT_XML.source).test(s);

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;

/**
 * HTML whose control characters (which XML cannot hold even as references) are
 * written as HTML character references, which an HTML reader turns back into them.
 */
export const htmlCharRefs = (html: string): string => html.replace(CONTROL, (c) => `&#${c.charCodeAt(0)};`);

/** Element content: &, <, > escaped; line ends written as LF (what any XML reader makes of them). */
export const escapeText = (s: string): string =>
  xmlSafe(s).replace(/\r\n?/g, '\n').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** An attribute value: also quotes, and tab/LF as references (attribute normalization would turn them into spaces). */
export const escapeAttr = (s: string): string =>
  escapeText(s).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');

export type Attrs = Record<string, string | number | boolean | null | undefined>;

const attrText = (attrs: Attrs): string =>
  Object.entries(attrs)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => ` ${k}="${escapeAttr(String(v))}"`)
    .join('');

/** `<name attrs>content</name>`, or `<name attrs/>` without content. `content` is markup already written by this module. */
export function element(name: string, attrs: Attrs = {}, content?: string): string {
  return content === undefined || content === ''
    ? `<${name}${attrText(attrs)}/>`
    : `<${name}${attrText(attrs)}>${content}</${name}>`;
}

/** An element holding text (escaped). */
export const textElement = (name: string, text: string, attrs: Attrs = {}): string =>
  element(name, attrs, escapeText(text));

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** A comment: `--` cannot appear inside one, nor a trailing `-`. */
export const comment = (text: string): string =>
  `<!-- ${xmlSafe(text)
    .replace(/-(?=-)/g, '- ')
    .replace(/-$/, '- ')} -->`;

const BOOLEAN_ATTRIBUTES = new Set([
  'allowfullscreen',
  'autoplay',
  'checked',
  'controls',
  'default',
  'disabled',
  'hidden',
  'ismap',
  'loop',
  'multiple',
  'muted',
  'nowrap',
  'open',
  'playsinline',
  'readonly',
  'required',
  'reversed',
  'selected',
]);

/**
 * The bank's (sanitized) HTML as XHTML, for a QTI item body: void elements
 * self-closed, boolean attributes given a value, entities decoded to
 * characters. `ok` is false when the result still is not well-formed (it is
 * then the text with its markup escaped, so the file stays valid).
 */
const MATHML_NAMESPACE = 'http://www.w3.org/1998/Math/MathML';

export function toXhtml(html: string): { xhtml: string; ok: boolean } {
  const xhtml = sanitizeHtml(xmlSafe(html), {
    allowedTags: false,
    allowedAttributes: false,
    allowVulnerableTags: true,
    selfClosing: [...VOID_ELEMENTS],
    transformTags: {
      '*': (tagName, attribs) => ({
        tagName,
        attribs: {
          // HTML puts <math> in MathML's namespace by itself; XML must be told.
          ...(tagName === 'math' ? { xmlns: MATHML_NAMESPACE } : {}),
          ...Object.fromEntries(
            Object.entries(attribs).map(([k, v]) => [k, v === '' && BOOLEAN_ATTRIBUTES.has(k) ? k : v]),
          ),
        },
      }),
    },
  }).replace(/\r\n?/g, '\n');
  if (XMLValidator.validate(`<div>${xhtml}</div>`) === true) return { xhtml, ok: true };
  return { xhtml: escapeText(html), ok: false };
}
