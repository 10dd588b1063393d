import { MEDIA_PLACEHOLDER, type MediaFile } from '../model';
import { localName, VOID_ELEMENTS, type XmlChild, type XmlElement } from '../xml';
import { attr, collapse, escapeAttr, escapeText, isTrue, kids, qtiName, textOf } from './elements';

// Pure: an item's body and feedback as the bank's HTML: QTI's own elements
// taken out or carried as text, a package's media made placeholders, and our
// export's wrappers of a text read back as plain text or HTML.

/** Our export's wrapper of a text, saying its format. */
const TEXT_FORMAT_ATTRIBUTE = 'data-text-format';
const UNTITLED_ATTRIBUTE = 'data-untitled';

/** Where a relative reference leads inside the package, or null when it leaves it. */
export function resolvePackagePath(fromFile: string, ref: string): string | null {
  let target = ref.replace(/[?#].*$/, '');
  try {
    target = decodeURIComponent(target);
  } catch {
    // a reference that is not valid percent-encoding is looked up as written
  }
  const parts = target.startsWith('/') ? [] : fromFile.split('/').slice(0, -1);
  for (const segment of target.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(segment);
  }
  return parts.length > 0 ? parts.join('/') : null;
}

/** The package's files and where the item is, so its references can be followed; absent for a lone item file. */
export interface PackageFiles {
  files: Map<string, Uint8Array>;
  itemPath: string;
}

const EXTERNAL = /^([a-z][a-z0-9+.-]*:|\/\/)/i;
const MEDIA_ATTRS: Record<string, string[]> = {
  img: ['src'],
  audio: ['src'],
  video: ['src', 'poster'],
  source: ['src'],
  track: ['src'],
  object: ['data'],
  embed: ['src'],
  input: ['src'],
};

// ---- Item body as HTML ----------------------------------------------------

const BLOCK = new Set(['p', 'div', 'ul', 'ol', 'table', 'blockquote', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'dl']);
/** Dropped when what they held was taken out (the interaction, an image a lone file cannot carry). */
const EMPTIED_WRAPPERS = new Set(['p', 'div', 'span', 'blockquote', 'figure', 'section']);
/** QTI 2.1 elements in a body that are spelled in lower case like HTML. */
const QTI_LOWERCASE = new Set(['prompt', 'gap', 'hottext', 'include']);

const isQtiElement = (el: XmlElement): boolean => {
  const local = localName(el);
  return local.startsWith('qti-') || /[A-Z]/.test(local) || QTI_LOWERCASE.has(local);
};

export interface HtmlContext {
  /** The interaction the body is read around, and what takes its place. */
  interaction?: XmlElement;
  replacement: string;
  /** Elements of the body that stand for a part of the question (a gap, a hot text): what the text shows in their place. */
  marked?: Map<XmlElement, TextMark>;
  pkg?: PackageFiles;
  warnings: Set<string>;
  /** Why the item cannot be imported (a file the package lacks). */
  problems: string[];
  media: Map<string, MediaFile>;
  /** Conditional blocks found in the body (feedback), carried as general feedback. */
  feedback: string[];
  /** The options read as HTML (the others were read as text). */
  richOptions?: Set<string>;
}

/** What a marked element becomes: its HTML in an HTML text, its marker (`[[1]]`, `[[phrase]]`) in a plain one. */
interface TextMark {
  html: string;
  text: string;
}

/** True when the element holds nothing but the interaction (and blank text): it goes with it. */
export function holdsOnly(el: XmlElement, interaction: XmlElement): boolean {
  let found = false;
  for (const child of el.children) {
    if (typeof child === 'string') {
      if (child.trim() !== '') return false;
    } else if (child === interaction) found = true;
    else if (holdsOnly(child, interaction)) found = true;
    else return false;
  }
  return found;
}

/** The reference made a media placeholder (a package file), kept (a URL), or undefined when the element must go. */
export function mediaReference(value: string, element: string, ctx: HtmlContext): string | undefined {
  const ref = value.trim();
  if (INLINE_IMAGE.test(ref)) return inlineImage(ref, ctx);
  if (ref === '' || ref.startsWith('#') || EXTERNAL.test(ref)) return value;
  if (!ctx.pkg) {
    ctx.warnings.add(
      `The ${element} "${ref}" was left out: a lone item file cannot carry it (import the content package to bring its media)`,
    );
    return undefined;
  }
  const key = resolvePackagePath(ctx.pkg.itemPath, ref);
  if (key === null) {
    ctx.problems.push(`It refers to "${ref}", a path leaving the package`);
    return value;
  }
  const bytes = ctx.pkg.files.get(key);
  if (!bytes) {
    ctx.problems.push(`It refers to the file "${ref}" (${key}), which the package does not contain`);
    return value;
  }
  ctx.media.set(key, { name: key, bytes });
  // Percent-encoded so that the placeholder ends where the name does (the import decodes it back).
  const encoded = key
    .split('/')
    .map((segment) =>
      encodeURIComponent(segment).replace(/[()'!*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
    )
    .join('/');
  return MEDIA_PLACEHOLDER + encoded;
}

/** An image written into the file as a data: URL (TAO's passages carry theirs so). */
const INLINE_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,([A-Za-z0-9+/=\s]+)$/i;

/** An inline image made a media file of its own (the bank serves no data: URLs), named after the file holding it. */
function inlineImage(ref: string, ctx: HtmlContext): string | undefined {
  const [, type, data] = INLINE_IMAGE.exec(ref)!;
  const compact = data.replace(/\s+/g, '');
  if (compact.length % 4 === 1) {
    ctx.warnings.add('An inline image that is not valid base64 was left out');
    return undefined;
  }
  const name = `${ctx.pkg?.itemPath ?? 'item'}-image-${ctx.media.size + 1}.${type.toLowerCase() === 'jpeg' ? 'jpg' : type.toLowerCase()}`;
  ctx.media.set(name, { name, bytes: new Uint8Array(Buffer.from(compact, 'base64')) });
  return MEDIA_PLACEHOLDER + encodeURIComponent(name);
}

function htmlAttrs(el: XmlElement, name: string, ctx: HtmlContext): string | undefined {
  let out = '';
  const mediaAttrs = MEDIA_ATTRS[name] ?? [];
  for (const [key, raw] of Object.entries(el.attrs)) {
    if (key === 'xmlns' || key.startsWith('xmlns:') || key.startsWith('xsi:')) continue;
    let attrName = key;
    if (key === 'xml:lang') attrName = 'lang';
    else if (key.includes(':')) continue;
    let value: string | undefined = raw;
    if (name === 'a' && attrName === 'href' && !EXTERNAL.test(raw.trim()) && !raw.trim().startsWith('#')) {
      ctx.warnings.add(
        `The link to "${raw.trim()}" was not carried (only images, audio and video are); its text was kept`,
      );
      continue;
    }
    if (mediaAttrs.includes(attrName)) {
      value = mediaReference(raw, name === 'img' ? 'image' : name, ctx);
      if (value === undefined) return undefined;
    }
    out += ` ${attrName}="${escapeAttr(value)}"`;
  }
  return out;
}

function qtiElementHtml(el: XmlElement, ctx: HtmlContext): string {
  const name = qtiName(el);
  switch (name) {
    case 'contentBody':
    case 'prompt':
      return childrenHtml(el, ctx);
    // Interactions whose content is the text itself: their gaps and hot texts are marked.
    case 'gapMatchInteraction':
    case 'hottextInteraction':
      return el.children
        .map((c) =>
          typeof c === 'string' ? escapeText(c) : qtiName(c) === 'prompt' ? promptBlock(c, ctx) : elementHtml(c, ctx),
        )
        .join('');
    case 'gapText':
      return '';
    // Its image is the question's (a hotspot's), its object the points the taker places.
    case 'positionObjectStage':
      return '';
    case 'rubricBlock': {
      const view = attr(el, 'view');
      ctx.warnings.add(`A rubric block${view ? ` (for ${view})` : ''} was not carried: the bank has no place for it`);
      return '';
    }
    case 'feedbackBlock':
    case 'feedbackInline': {
      const html = childrenHtml(el, ctx).trim();
      if (html) {
        ctx.feedback.push(html);
        ctx.warnings.add(
          `Feedback in the item body, shown in QTI only when ${attr(el, 'outcomeIdentifier') ?? 'an outcome'} matches "${attr(el, 'identifier') ?? ''}", is carried as general feedback (shown in every released review)`,
        );
      }
      return '';
    }
    default:
      ctx.warnings.add(`The QTI element ${localName(el)} in the text was not carried (its text was kept)`);
      return childrenHtml(el, ctx);
  }
}

/** What an `<object>` shows, by its type (else its file's extension): the element that plays it here. */
const OBJECT_KINDS: Array<[RegExp, 'img' | 'audio' | 'video']> = [
  [/^image\/(png|jpeg|gif|webp)$|\.(png|jpe?g|gif|webp)$/i, 'img'],
  [/^audio\/(mpeg|mp3|ogg|wav|x-wav)$|\.(mp3|ogg|oga|opus|wav)$/i, 'audio'],
  [/^video\/(mp4|webm)$|\.(mp4|m4v|webm)$/i, 'video'],
];

/**
 * An `<object>`: the image, sound or video it holds as the element that shows it here, its text the
 * image's alt; else (a type no page here plays, a file a lone item cannot carry) its fallback, the
 * content inside it, which may be another object: QTI's nested objects, the first that can be shown.
 */
function objectHtml(el: XmlElement, ctx: HtmlContext): string {
  const data = attr(el, 'data')?.trim() ?? '';
  const type = attr(el, 'type')?.trim() ?? '';
  const kind = OBJECT_KINDS.find(([pattern]) => pattern.test(type) || pattern.test(data))?.[1];
  const fallback = () => childrenHtml(el, ctx);
  if (!kind || data === '') {
    ctx.warnings.add(
      `An object (${type || data || 'no type'}) that no page here shows was replaced by its fallback content`,
    );
    return fallback();
  }
  const src = mediaReference(data, kind === 'img' ? 'image' : kind, ctx);
  if (src === undefined) return fallback();
  const size = ['width', 'height']
    .filter((k) => /^\d+$/.test(attr(el, k)?.trim() ?? ''))
    .map((k) => ` ${k}="${attr(el, k)!.trim()}"`)
    .join('');
  if (kind === 'img') return `<img src="${escapeAttr(src)}" alt="${escapeAttr(collapse(textOf(el)))}"${size}>`;
  return `<${kind} controls src="${escapeAttr(src)}"${size}></${kind}>`;
}

function elementHtml(el: XmlElement, ctx: HtmlContext): string {
  const mark = ctx.marked?.get(el);
  if (mark) return mark.html;
  if (ctx.interaction && (el === ctx.interaction || holdsOnly(el, ctx.interaction))) return ctx.replacement;
  if (isQtiElement(el)) return qtiElementHtml(el, ctx);
  const name = localName(el).toLowerCase();
  if (name === 'object') return objectHtml(el, ctx);
  const attrs = htmlAttrs(el, name, ctx);
  if (attrs === undefined) return '';
  if (VOID_ELEMENTS.has(name)) return `<${name}${attrs}>`;
  const inner = childrenHtml(el, ctx);
  const hadContent = el.children.some((c) => typeof c !== 'string' || c.trim() !== '');
  if (EMPTIED_WRAPPERS.has(name) && hadContent && inner.trim() === '') return '';
  return `<${name}${attrs}>${inner}</${name}>`;
}

export const childrenHtml = (el: XmlElement, ctx: HtmlContext): string =>
  el.children.map((c) => (typeof c === 'string' ? escapeText(c) : elementHtml(c, ctx))).join('');

/** A prompt's HTML as a block of the text: wrapped in a paragraph unless it already holds blocks. */
export function promptBlock(prompt: XmlElement | undefined, ctx: HtmlContext): string {
  if (!prompt) return '';
  const html = childrenHtml(prompt, ctx).trim();
  if (html === '') return '';
  return kids(prompt).some((k) => BLOCK.has(localName(k).toLowerCase())) ? html : `<p>${html}</p>`;
}

/** A text field as the item gives it: plain text when our export wrapped it as such, else HTML. */
export interface FieldContent {
  plain?: string;
  html: string;
  /** The wrapper said the question has no title of its own. */
  untitled?: boolean;
}

/** The one element among `nodes` (blank text aside) that is our export's wrapper of a text, if that is all there is. */
export function wrapperAmong(
  nodes: XmlChild[],
  skip: (el: XmlElement) => boolean = () => false,
): XmlElement | undefined {
  let found: XmlElement | undefined;
  for (const node of nodes) {
    if (typeof node === 'string') {
      if (node.trim() !== '') return undefined;
    } else if (skip(node)) continue;
    else if (found || node.attrs[TEXT_FORMAT_ATTRIBUTE] === undefined) return undefined;
    else found = node;
  }
  return found;
}

const plainAsHtml = (text: string) => escapeText(text).replace(/\r?\n/g, '<br>\n');

/** A wrapper's text: plain as written, or its content as HTML. */
export function wrappedContent(wrapper: XmlElement, ctx: HtmlContext): FieldContent {
  const untitled = isTrue(wrapper.attrs[UNTITLED_ATTRIBUTE]);
  if (wrapper.attrs[TEXT_FORMAT_ATTRIBUTE]?.trim() === 'plain') {
    const plain = markedText(wrapper, ctx);
    return { plain, html: plainAsHtml(plain), untitled };
  }
  return { html: childrenHtml(wrapper, ctx).trim(), untitled };
}

/** An element's text with its marked elements as their markers (and a gap match's chips left out). */
function markedText(node: XmlChild, ctx: HtmlContext): string {
  if (typeof node === 'string') return node;
  const mark = ctx.marked?.get(node);
  if (mark) return mark.text;
  if (qtiName(node) === 'gapText') return '';
  return node.children.map((c) => markedText(c, ctx)).join('');
}

/** A feedback element's content (through a content body), unwrapped when our export wrapped it. */
export function fieldContent(el: XmlElement, ctx: HtmlContext): FieldContent {
  const only = kids(el);
  const holder = only.length === 1 && qtiName(only[0]) === 'contentBody' ? only[0] : el;
  const wrapper = wrapperAmong(holder.children);
  return wrapper ? wrappedContent(wrapper, ctx) : { html: childrenHtml(el, ctx).trim() };
}
