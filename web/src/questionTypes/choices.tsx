import { QuestionText, type TextFormat } from '../QuestionText';
import { choiceLabelOf } from '../questionHtml';
import type { TakerInputProps } from './module';

/** One option of the question's, as radio buttons: the answer is the option's text. */
export const OneChoice = ({ question, name, value, onAnswer }: TakerInputProps) => (
  <ChoiceInputs
    kind="radio"
    name={name}
    options={question.options}
    format={question.text_format}
    isChosen={(option) => value === option}
    onToggle={onAnswer}
  />
);

/** The options of a question as radio buttons (one answer) or checkboxes (several), each in its label (HTML in an html question: an image option is its image). */
export function ChoiceInputs({
  kind,
  name,
  options,
  format,
  isChosen,
  onToggle,
}: {
  kind: 'radio' | 'checkbox';
  name: string;
  options: string[];
  format?: TextFormat | null;
  isChosen: (option: string) => boolean;
  onToggle: (option: string) => void;
}) {
  return (
    <>
      {options.map((option) => (
        <label key={option} className="option">
          <input
            type={kind}
            name={name}
            value={option}
            // An HTML option's name said as text: a formula or an image alone names no control otherwise.
            aria-label={format === 'html' ? choiceLabelOf(option, format) : undefined}
            checked={isChosen(option)}
            onChange={() => onToggle(option)}
          />{' '}
          <QuestionText text={option} format={format} />
        </label>
      ))}
    </>
  );
}
