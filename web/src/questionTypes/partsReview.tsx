import { QuestionText, type TextFormat } from '../QuestionText';
import { plural } from '../ui';
import type { ReviewProps } from './module';
import type { ReviewedPart } from './parts';

/** A part's text as the review reads it: a blank part says so. */
const shownPart = (part: string) => (part === '' ? '(blank)' : part);

/**
 * An answer with parts: a table with a row per part, the taker's part beside the key's and
 * "right" or "wrong" in words (never colour alone), then the marks of the whole.
 */
export function PartsReview({
  item,
  caption,
  parts,
  format,
}: ReviewProps & {
  caption: string;
  parts: ReviewedPart[];
  /** html: the parts are options and stems of an html question, shown as HTML. */
  format?: TextFormat | null;
}) {
  const shown = (part: string) => (part === '' ? shownPart(part) : <QuestionText text={part} format={format} />);
  return (
    <>
      <table className="parts-review">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Part</th>
            <th scope="col">Your answer</th>
            <th scope="col">Correct answer</th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          {parts.map((part, i) => (
            <tr key={i}>
              <th scope="row">{shown(part.label)}</th>
              <td>{shown(part.answer)}</td>
              <td>{shown(part.key)}</td>
              <td>{part.right ? 'right' : 'wrong'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        {item.answered ? '' : 'Not answered. '}
        {item.correct ? 'Correct' : 'Not fully correct'}, {plural(item.marks_awarded, 'mark')}
      </p>
    </>
  );
}
