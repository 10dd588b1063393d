// Loaded only when a test holds the type (its module's loader), with the attempt.
import { QuestionText } from '../../QuestionText';
import { choiceLabelOf } from '../../questionHtml';
import type { TakerInputProps } from '../module';
import { answerOfParts, partsOf } from '../parts';

/**
 * Per stem, a drop-down of the options (blank first: not answered), labelled by the stem. In an html
 * question the options (images, formulas) are shown numbered above, each drop-down entry named by its number.
 */
export function TakerInput({ question, name, value, onAnswer }: TakerInputProps) {
  const stems = question.stems ?? [];
  const parts = partsOf(value, stems.length);
  const choose = (i: number, option: string) => onAnswer(answerOfParts(parts.map((p, j) => (j === i ? option : p))));
  const html = question.text_format === 'html';
  const entry = (option: string, k: number) => (html ? `${k + 1}. ${choiceLabelOf(option, 'html')}` : option);
  return (
    <div className="parts">
      {html ? (
        <ol aria-label="Options">
          {question.options.map((option) => (
            <li key={option}>
              <QuestionText text={option} format="html" />
            </li>
          ))}
        </ol>
      ) : null}
      {stems.map((stem, i) => (
        <div key={i} className="part">
          <label htmlFor={`${name}-${i}`}>
            <QuestionText text={stem} format={question.text_format} />
          </label>{' '}
          <select
            id={`${name}-${i}`}
            // A stem that is a formula or an image alone names its drop-down as text too.
            aria-label={html ? choiceLabelOf(stem, 'html') : undefined}
            value={parts[i]}
            onChange={(e) => choose(i, e.target.value)}
          >
            <option value="">—</option>
            {question.options.map((option, k) => (
              <option key={option} value={option}>
                {entry(option, k)}
              </option>
            ))}
          </select>
        </div>
      ))}
    </div>
  );
}
