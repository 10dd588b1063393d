import { useId } from 'react';
import { ProblemText } from '../../FormProblems';
import { ChoiceInputs } from '../choices';
import type { AuthorKeyProps, QuestionTypeModule, ReviewProps, TakerInputProps } from '../module';
import { ChoiceReview } from '../review';
import { choicesOf, joinChoices, multipleSelect } from './definition';

function TakerInput({ question, name, value, onAnswer }: TakerInputProps) {
  const chosen = new Set(choicesOf(value));
  const toggle = (option: string) => {
    const next = new Set(chosen);
    if (next.has(option)) next.delete(option);
    else next.add(option);
    onAnswer(joinChoices(question.options, (o) => next.has(o)));
  };
  return (
    <ChoiceInputs
      kind="checkbox"
      name={name}
      options={question.options}
      format={question.text_format}
      isChosen={(option) => chosen.has(option)}
      onToggle={toggle}
    />
  );
}

function AuthorKey({ draft, options, set, problemsAt }: AuthorKeyProps) {
  const correctId = useId();
  const problems = problemsAt('correct_answer');
  return (
    <fieldset aria-describedby={problems ? correctId : undefined}>
      <legend>Correct options</legend>
      {options.length === 0 ? <p>Write the options first.</p> : null}
      <ProblemText id={correctId} messages={problems} />
      {options.map((o) => (
        <label key={o} className="option">
          <input
            type="checkbox"
            aria-invalid={problems ? true : undefined}
            checked={draft.correct_choices.includes(o)}
            onChange={(e) =>
              set(
                'correct_choices',
                e.target.checked ? [...draft.correct_choices, o] : draft.correct_choices.filter((c) => c !== o),
              )
            }
          />{' '}
          {o}
        </label>
      ))}
    </fieldset>
  );
}

const Review = (props: ReviewProps) => <ChoiceReview {...props} shownAs={multipleSelect.shownAnswer} />;

export const multipleSelectModule: QuestionTypeModule = { ...multipleSelect, views: { TakerInput, AuthorKey, Review } };
