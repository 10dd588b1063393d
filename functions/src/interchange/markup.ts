// Pure: the markup questions in a bank file carry, found by scans that pass over
// the text once. A pattern such as /<[^>]*>/g starts again at every "<" and
// runs to the end of the text when no ">" follows: text made of many "<" costs
// the square of its length, and an import's text comes from anyone.

/** Whether the text holds a tag (`<p>`, `</b>`, `<br/>`) or the start of a comment (`<!--`). */
export function hasMarkup(text: string): boolean {
  if (text.includes('<!--')) return true;
  // A tag needs a ">" after its name: only a "<" before the last ">" can open one.
  const lastClose = text.lastIndexOf('>');
  for (let at = text.indexOf('<'); at >= 0 && at < lastClose; at = text.indexOf('<', at + 1)) {
    const name = text[at + 1] === '/' ? at + 2 : at + 1;
    if (name < lastClose && isAsciiLetter(text.charCodeAt(name))) return true;
  }
  return false;
}

const isAsciiLetter = (code: number): boolean => (code >= 65 && code <= 90) || (code >= 97 && code <= 122);

/**
 * The text without each span from `open` to the first `close` after it, as
 * `text.replace(/<open>[\s\S]*?<close>/g, '')` would leave it: an `open` with
 * no `close` after it stays, and so does everything after it.
 */
export function withoutSpans(text: string, open: string, close: string): string {
  let kept = '';
  let from = 0;
  for (;;) {
    const start = text.indexOf(open, from);
    if (start < 0) break;
    const end = text.indexOf(close, start + open.length);
    if (end < 0) break;
    kept += text.slice(from, start);
    from = end + close.length;
  }
  return kept + text.slice(from);
}

/** The text without its tags, as `replace(/<[^>]*>/g, '')`. */
export const withoutTags = (html: string): string => withoutSpans(html, '<', '>');
