import createDOMPurify from 'dompurify';

/**
 * The one sanitizer of question HTML in the app. The service already sanitizes on write;
 * this is the second wall, so a stored text that slipped past it still runs nothing here.
 * An instance of its own: its hook must not touch any other use of DOMPurify.
 */
const purify = createDOMPurify(window);

// Formatting, lists, tables, images and audio. No links (a way out of an exam) but to one of
// our media files, no forms, no style attributes (the page's policy refuses inline styles), no
// classes or ids (the app's own look and names are not the text's to borrow).
const ALLOWED_TAGS = [
  'p', 'br', 'hr', 'div', 'span', 'strong', 'b', 'em', 'i', 'u', 's', 'sub', 'sup', 'small', 'mark',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'code', 'ul', 'ol', 'li', 'dl', 'dt', 'dd',
  'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'figure', 'figcaption',
  'img', 'audio', 'video', 'source', 'a',
  // MathML Core, which the browser draws with no script: formulas as the service stores them.
  'math', 'semantics', 'annotation', 'mrow', 'mi', 'mn', 'mo', 'ms', 'mtext', 'mspace', 'msub', 'msup',
  'msubsup', 'mfrac', 'msqrt', 'mroot', 'mover', 'munder', 'munderover', 'mmultiscripts', 'mprescripts',
  'none', 'mtable', 'mtr', 'mtd', 'mstyle', 'mpadded', 'mphantom', 'merror', 'menclose',
]; // prettier-ignore
const ALLOWED_ATTR = [
  'href',
  'src',
  'alt',
  'title',
  'width',
  'height',
  'colspan',
  'rowspan',
  'scope',
  'controls',
  'lang',
  'dir',
  // MathML's presentation attributes (none runs anything or styles the page).
  'display', 'displaystyle', 'scriptlevel', 'mathvariant', 'mathsize', 'mathcolor', 'mathbackground', 'encoding',
  'form', 'fence', 'separator', 'stretchy', 'symmetric', 'largeop', 'movablelimits', 'lspace', 'rspace',
  'minsize', 'maxsize', 'linethickness', 'depth', 'voffset', 'accent', 'accentunder', 'notation',
  'columnalign', 'rowalign', 'columnspacing', 'rowspacing', 'columnlines', 'rowlines', 'columnspan', 'frame',
]; // prettier-ignore

/** The attribute that names a media file in sanitized HTML, in place of its `src`. */
export const MEDIA_ATTRIBUTE = 'data-media-id';
/** The attribute that names the media file a link points to, in place of its `href`. */
export const MEDIA_LINK_ATTRIBUTE = 'data-media-link';
const MEDIA_PATH = /^\/api\/media\/([A-Za-z0-9_.-]{1,300})$/;

/** The media id of `/api/media/{id}` (relative, or absolute on this origin); null for any other address. */
export function mediaIdOf(src: string): string | null {
  let url: URL;
  try {
    url = new URL(src, location.origin);
  } catch {
    return null;
  }
  if (url.origin !== location.origin) return null;
  return MEDIA_PATH.exec(url.pathname)?.[1] ?? null;
}

// A `src` never reaches the page as it is: an <img> cannot send the bearer token, and any
// other address is not ours to load. A media file's id is kept for QuestionText to fetch.
purify.addHook('afterSanitizeAttributes', (node) => {
  // An image the text does not describe is left out of what a screen reader reads, not read as a file name.
  if (node.nodeName === 'IMG' && !node.hasAttribute('alt')) node.setAttribute('alt', '');
  // A link keeps only the media file it points to (QuestionText makes it a player or a download).
  const href = node.getAttribute('href');
  if (href !== null) {
    node.removeAttribute('href');
    const id = node.nodeName === 'A' ? mediaIdOf(href) : null;
    if (id) node.setAttribute(MEDIA_LINK_ATTRIBUTE, id);
  }
  const src = node.getAttribute('src');
  if (src === null) return;
  node.removeAttribute('src');
  const id = mediaIdOf(src);
  if (id) node.setAttribute(MEDIA_ATTRIBUTE, id);
});

/** Question HTML as the page may show it: the allow-list above, no scripts, media by id only. */
export function sanitizeQuestionHtml(html: string): string {
  const fragment = purify.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    RETURN_DOM_FRAGMENT: true,
  });
  // Any other link leaves only its text: no element of the page leads out of it.
  for (const link of Array.from(fragment.querySelectorAll(`a:not([${MEDIA_LINK_ATTRIBUTE}])`)))
    link.replaceWith(...Array.from(link.childNodes));
  const holder = document.createElement('div');
  holder.append(fragment);
  return holder.innerHTML;
}

/**
 * An option of an html question as one line of text, for a drop-down's entry or a button's name: its
 * text, and for an image its alt text (an option that is only an image is named by it).
 */
export function choiceLabelOf(text: string, format?: string | null): string {
  if (format !== 'html') return text;
  const template = document.createElement('template');
  template.innerHTML = sanitizeQuestionHtml(text);
  for (const image of Array.from(template.content.querySelectorAll('img')))
    image.replaceWith(` ${image.getAttribute('alt') ?? ''} `);
  // A formula is read by its annotation (its TeX) no more than once: the drawn part's text is enough.
  for (const annotation of Array.from(template.content.querySelectorAll('annotation'))) annotation.remove();
  return (template.content.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** A question's text as one line of plain text (for a button's name, a confirmation): HTML read inertly. */
export function plainTextOf(text: string, format?: string | null): string {
  if (format !== 'html') return text;
  const template = document.createElement('template');
  template.innerHTML = sanitizeQuestionHtml(text);
  return (template.content.textContent ?? '').replace(/\s+/g, ' ').trim();
}
