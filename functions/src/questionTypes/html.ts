import type SanitizeHtml from 'sanitize-html';

// Loaded on the first HTML sanitized (authoring, an import), not with the schemas: a taker's save reads these
// schemas' helpers and never sanitizes, and the sanitizer (with its CSS and HTML parsers) weighs on a cold start.
let sanitizer: typeof SanitizeHtml | undefined;
const sanitizeHtml = (...args: Parameters<typeof SanitizeHtml>): string =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (sanitizer ??= require('sanitize-html') as typeof SanitizeHtml)(...args);

// Pure: the allow-list an HTML question text (and its feedback) is cut down to
// before it is stored. What is stored is what every reader renders, so nothing
// that runs (script, event handlers, javascript: or data: URLs, svg, iframes,
// styles) survives a write. The import reports `removed` as warnings.

/** Where a stored HTML text may take media from: our own media route (relative), or the web. */
export const MEDIA_ROUTE = /^\/api\/media\/[A-Za-z0-9_.-]{1,300}$/;
// One host character, then anything but spacing: `[^\s/?#]+[^\s]*$` says the same but backtracks through every split of a long URL.
const WEB_URL = /^https?:\/\/[^\s/?#][^\s]*$/i;
const LINK_URL = /^(https?:\/\/[^\s/?#][^\s]*|mailto:[^\s]+)$/i;
/** A media URL as media/rules.ts mediaUrl writes it for an id newMediaId made: an organization id (a slug or a uuid), ".", a uuid. */
const MEDIA_URL = /^\/api\/media\/[A-Za-z0-9_-]{1,128}\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Whether `url` is exactly the URL of one of our media files: the one relative address a question may link to. */
const isMediaUrl = (url: string): boolean => MEDIA_URL.test(url);
/** The import's placeholder for a file of the bank file (interchange/model.ts MEDIA_PLACEHOLDER). */
const PLACEHOLDER = '@@PLUGINFILE@@';

const ALLOWED_TAGS = [
  'p',
  'br',
  'b',
  'i',
  'em',
  'strong',
  'u',
  'sub',
  'sup',
  'ul',
  'ol',
  'li',
  'span',
  'div',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'pre',
  'code',
  'blockquote',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'a',
  'img',
  'audio',
  'video',
  'source',
];

/**
 * MathML Core's elements (what browsers render with no script): a formula written in MathML, or
 * made from TeX on write, is kept. annotation-xml is left out: it may hold HTML of its own.
 */
const MATHML_TAGS = [
  'math',
  'semantics',
  'annotation',
  'mrow',
  'mi',
  'mn',
  'mo',
  'ms',
  'mtext',
  'mspace',
  'msub',
  'msup',
  'msubsup',
  'mfrac',
  'msqrt',
  'mroot',
  'mover',
  'munder',
  'munderover',
  'mmultiscripts',
  'mprescripts',
  'none',
  'mtable',
  'mtr',
  'mtd',
  'mstyle',
  'mpadded',
  'mphantom',
  'merror',
  // Not in MathML Core, but what TeX's \overline, \cancel and \boxed become: a browser without it shows its content.
  'menclose',
];

/** MathML Core's presentation attributes: no href, no event handler, no style, no class. */
const MATHML_COMMON = ['dir', 'displaystyle', 'scriptlevel', 'mathvariant', 'mathsize', 'mathcolor', 'mathbackground'];
const MATHML_ATTRIBUTES: Record<string, string[]> = {
  math: ['display', 'alttext'],
  annotation: ['encoding'],
  mo: [
    'form',
    'fence',
    'separator',
    'stretchy',
    'symmetric',
    'largeop',
    'movablelimits',
    'lspace',
    'rspace',
    'minsize',
    'maxsize',
  ],
  mfrac: ['linethickness'],
  menclose: ['notation'],
  mspace: ['width', 'height', 'depth'],
  mpadded: ['width', 'height', 'depth', 'lspace', 'voffset'],
  mover: ['accent'],
  munder: ['accentunder'],
  munderover: ['accent', 'accentunder'],
  mtable: ['columnalign', 'rowalign', 'columnspacing', 'rowspacing', 'columnlines', 'rowlines', 'frame'],
  mtr: ['columnalign', 'rowalign'],
  mtd: ['columnspan', 'rowspan', 'columnalign', 'rowalign'],
};

const ALLOWED_ATTRIBUTES: Record<string, string[]> = {
  a: ['href', 'rel', 'target'],
  img: ['src', 'alt', 'width', 'height'],
  audio: ['src', 'controls'],
  video: ['src', 'controls', 'width', 'height'],
  source: ['src', 'type'],
  th: ['colspan', 'rowspan'],
  td: ['colspan', 'rowspan'],
  ...Object.fromEntries(MATHML_TAGS.map((tag) => [tag, [...MATHML_COMMON, ...(MATHML_ATTRIBUTES[tag] ?? [])]])),
};

/** A MathML annotation-xml (the formula in HTML or in content MathML, another reading of it): gone whole. */
const ANNOTATION_XML = /<([\w.-]+:)?annotation-xml\b[\s\S]*?<\/([\w.-]+:)?annotation-xml\s*>/gi;

const TAGS = [...ALLOWED_TAGS, ...MATHML_TAGS];

/** A QTI item's MathML is namespaced (`<m:math xmlns:m=…>`): the same element unprefixed, as HTML writes it. */
const unprefixed = (tagName: string): string => {
  const local = tagName.replace(/^[a-z][\w.-]*:/i, '');
  return MATHML_TAGS.includes(local) ? local : tagName;
};

/** A namespace declaration says nothing once the element is unprefixed: dropped without a word. */
const isNamespaceDeclaration = (name: string): boolean => name === 'xmlns' || name.startsWith('xmlns:');

const MEDIA_TAGS = new Set(['img', 'audio', 'video', 'source']);

/** Whether `src` may be stored as a media source: /api/media/{id} or an http(s) URL. */
export const isAllowedMediaSource = (src: string): boolean => MEDIA_ROUTE.test(src.trim()) || WEB_URL.test(src.trim());

const shortValue = (value: string): string => (value.length > 40 ? `${value.slice(0, 40)}…` : value);

/**
 * The HTML cut down to the allow-list, and a short description of each kind
 * of thing removed ("<script>", "onerror attribute", "javascript: link"…),
 * each named once, in the order first met.
 */
export function sanitizeQuestionHtml(html: string): { html: string; removed: string[] } {
  const removed = new Set<string>();
  const withoutAnnotations = html.replace(ANNOTATION_XML, () => {
    removed.add('<annotation-xml>');
    return '';
  });
  const clean = sanitizeHtml(withoutAnnotations, {
    allowedTags: TAGS,
    allowedAttributes: ALLOWED_ATTRIBUTES,
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: {
      img: ['http', 'https'],
      audio: ['http', 'https'],
      video: ['http', 'https'],
      source: ['http', 'https'],
    },
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    selfClosing: ['br', 'img', 'source', 'mspace', 'mprescripts', 'none'],
    // XHTML (a QTI item's) closes its empty MathML elements with `/>`.
    parser: { recognizeSelfClosing: true },
    // An image or a sound whose source was removed shows nothing: gone with it.
    exclusiveFilter: (frame) => (frame.tag === 'img' || frame.tag === 'source') && !frame.attribs.src,
    // Whatever the sanitizer's defaults, these never carry text worth keeping.
    nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'template'],
    transformTags: {
      '*': (written, attribs) => {
        const tagName = unprefixed(written);
        if (!TAGS.includes(tagName)) {
          removed.add(`<${tagName}>`);
          return { tagName, attribs };
        }
        const allowed = ALLOWED_ATTRIBUTES[tagName] ?? [];
        const kept: Record<string, string> = {};
        for (const [name, value] of Object.entries(attribs)) {
          // Replaced below: a link's rel and target are ours.
          if ((tagName === 'a' && (name === 'rel' || name === 'target')) || isNamespaceDeclaration(name)) continue;
          if (!allowed.includes(name)) {
            removed.add(`${name} attribute`);
            continue;
          }
          if (name === 'href') {
            // A link to an imported sound or file (Moodle's `<a href="@@PLUGINFILE@@/x.mp3">`) is our media route.
            if (!LINK_URL.test(value.trim()) && !isMediaUrl(value.trim())) {
              removed.add(
                `link ${shortValue(value.trim())} (only http, https, mailto and /api/media/… links are kept)`,
              );
              continue;
            }
            kept.href = value.trim();
            continue;
          }
          if (name === 'src' && MEDIA_TAGS.has(tagName)) {
            if (!isAllowedMediaSource(value)) {
              removed.add(
                `${tagName} source ${shortValue(value.trim())} (only /api/media/… and http(s) URLs are kept)`,
              );
              continue;
            }
            kept.src = value.trim();
            continue;
          }
          kept[name] = value;
        }
        // A link opens apart from the question, and tells the target nothing about it.
        if (tagName === 'a' && kept.href)
          Object.assign(kept, { rel: 'noopener noreferrer nofollow', target: '_blank' });
        return { tagName, attribs: kept };
      },
    },
  });
  return { html: clean.trim(), removed: [...removed] };
}

/** The `@@PLUGINFILE@@/…` references left in an HTML text: files the import did not store (so none may be kept). */
export function unresolvedMedia(html: string): string[] {
  const found = new Set<string>();
  for (const match of html.matchAll(/@@PLUGINFILE@@\/?([^"'\s<>)]*)/g)) found.add(`${PLACEHOLDER}/${match[1]}`);
  return [...found];
}

/** Whether sanitized HTML shows nothing: no text, and no image, sound or video. */
export function isBlankHtml(html: string): boolean {
  if (/<(img|audio|video)\b/i.test(html)) return false;
  const text = html
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;|&#160;|&#xa0;/gi, ' ')
    .trim();
  return text.length === 0;
}
