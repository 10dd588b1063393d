import { createElement, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { sanitizeQuestionHtml } from '../questionHtml';
import { loadMediaIn, MediaLoaderContext, type TextFormat } from '../QuestionText';
import { segmentsOf } from './parts';

/** What stands at the k-th mark of a text (in its order), given what the mark holds. */
type MarkRenderer = (k: number, inner: string) => ReactNode;

// Elements that hold no children, and the sanitizer's attributes React spells otherwise.
const VOID = new Set(['img', 'br', 'hr', 'source']);
const REACT_NAMES: Record<string, string> = { colspan: 'colSpan', rowspan: 'rowSpan' };

/**
 * Sanitized HTML as React elements, each mark in its text replaced by what `render` gives: the
 * controls stay React's, and the text never reaches the page as markup. A mark split by markup
 * (`[[<b>x</b>]]`) is not one.
 */
function elementsOf(clean: string, mark: RegExp, render: MarkRenderer): ReactNode[] {
  const template = document.createElement('template');
  template.innerHTML = clean;
  let k = 0;
  const convert = (node: Node, key: number): ReactNode => {
    if (node.nodeType === Node.TEXT_NODE)
      return segmentsOf(node.textContent ?? '', mark).map((segment, i) =>
        'text' in segment ? segment.text : <span key={`${key}-${i}`}>{render(k++, segment.inner)}</span>,
      );
    if (!(node instanceof Element)) return null;
    const tag = node.tagName.toLowerCase();
    const props: Record<string, unknown> = { key };
    for (const { name, value } of Array.from(node.attributes))
      props[REACT_NAMES[name] ?? name] = name === 'controls' ? true : value;
    return createElement(tag, props, ...(VOID.has(tag) ? [] : Array.from(node.childNodes).map(convert)));
  };
  return Array.from(template.content.childNodes).map(convert);
}

/**
 * A question's text with a control at each of its marks (a gap, a phrase): plain text as written,
 * HTML through the one sanitizer, its media fetched as QuestionText fetches them.
 */
export function MarkedText({
  text,
  format,
  mark,
  render,
}: {
  text: string;
  format?: TextFormat | null;
  mark: RegExp;
  render: MarkRenderer;
}) {
  const html = format === 'html';
  const clean = useMemo(() => (html ? sanitizeQuestionHtml(text) : ''), [html, text]);
  const load = useContext(MediaLoaderContext);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const root = ref.current;
    return root && load && clean ? loadMediaIn(root, load) : undefined;
  }, [clean, load]);
  if (!html)
    return (
      <div className="qtext marked-text">
        {segmentsOf(text, mark).map((segment, i) =>
          'text' in segment ? segment.text : <span key={i}>{render(segment.mark, segment.inner)}</span>,
        )}
      </div>
    );
  return (
    <div ref={ref} className="qtext qtext-html marked-text">
      {elementsOf(clean, mark, render)}
    </div>
  );
}
