import { htmlLine } from './conventions';
import { OPTION_SEPARATOR, type QuestionDraft } from './model';

// Pure: when an option (a stem, an item, a choice) read from a bank file stays HTML. In an html
// question the bank holds options as HTML, so an option that is only an image stays an image and a
// formula stays a formula; an option whose markup is only layout (a paragraph, a line break) is its
// text, as it always was.

/** A lone paragraph around the whole option: an option is shown inline, so it goes. */
const LONE_PARAGRAPH = /^<p\b[^>]*>((?:(?!<\/?p\b)[\s\S])*)<\/p>$/i;

/**
 * The option's HTML when it says something its text cannot (an image, a formula, formatting),
 * its lone paragraph unwrapped; undefined when its text says it all.
 */
export function richOption(html: string): string | undefined {
  const { images, formatting } = htmlLine(html);
  if (images.length === 0 && formatting.length === 0) return undefined;
  const trimmed = html.trim();
  return (LONE_PARAGRAPH.exec(trimmed)?.[1] ?? trimmed).trim();
}

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** How a type's options are HTML in an html question (questionTypes' QuestionTypeModule.htmlOptions). */
export type HtmlOptions = 'one' | 'several' | 'apart' | null;

/**
 * An html question's options, stems, matches, key and gap choices as HTML: the ones a reader kept
 * as HTML (`rich`) as they are, the others (read as text) escaped, so that text such as "x < y"
 * is not read as markup. `options` says how its type holds them (null: as text).
 */
export function withHtmlChoices(draft: QuestionDraft, rich: ReadonlySet<string>, options: HtmlOptions): QuestionDraft {
  if (draft.text_format !== 'html' || options === null) return draft;
  const html = (text: string): string => (rich.has(text) ? text : escapeHtml(text));
  const all = (texts: string[] | undefined) => texts?.map(html);
  const key =
    draft.correct_answer === undefined
      ? undefined
      : options === 'several'
        ? draft.correct_answer.split(OPTION_SEPARATOR).map(html).join(OPTION_SEPARATOR)
        : options === 'one'
          ? html(draft.correct_answer)
          : draft.correct_answer;
  const result: QuestionDraft = { ...draft };
  if (draft.options) result.options = all(draft.options);
  if (draft.stems) result.stems = all(draft.stems);
  if (draft.matches) result.matches = all(draft.matches);
  if (draft.drag_options) result.drag_options = all(draft.drag_options);
  if (key !== undefined) result.correct_answer = key;
  if (draft.gaps)
    result.gaps = draft.gaps.map((gap) =>
      gap.kind === 'select' || gap.kind === 'drag'
        ? {
            ...gap,
            ...(gap.options ? { options: all(gap.options) } : {}),
            answers: gap.answers.map((a) => ({ ...a, answer: html(a.answer) })),
          }
        : gap,
    );
  return result;
}
