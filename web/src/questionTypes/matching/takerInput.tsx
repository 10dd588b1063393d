// Loaded only when a test holds the type (its module's loader), with the attempt.
import type { TakerInputProps } from '../module';
import { answerOfParts, partsOf } from '../parts';

/** Per stem, a drop-down of the options (blank first: not answered), labelled by the stem. */
export function TakerInput({ question, name, value, onAnswer }: TakerInputProps) {
  const stems = question.stems ?? [];
  const parts = partsOf(value, stems.length);
  const choose = (i: number, option: string) => onAnswer(answerOfParts(parts.map((p, j) => (j === i ? option : p))));
  return (
    <div className="parts">
      {stems.map((stem, i) => (
        <div key={i} className="part">
          <label htmlFor={`${name}-${i}`}>{stem}</label>{' '}
          <select id={`${name}-${i}`} value={parts[i]} onChange={(e) => choose(i, e.target.value)}>
            <option value="">—</option>
            {question.options.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </div>
      ))}
    </div>
  );
}
