import type { ReactNode } from 'react';
import type { Schemas } from '../api';
import { QuestionText } from '../QuestionText';
import { plural } from '../ui';
import { asStored } from './answerText';
import type { ReviewProps } from './module';

type ReviewItem = Schemas['ReviewItem'];

/** An answer marked by a person: what the taker wrote, then the marks (or that they are awaited) and the marker's feedback. */
export function MarkedReview({ item, question }: ReviewProps) {
  return (
    <>
      <p>
        Your answer:{' '}
        {item.answered ? <span style={{ whiteSpace: 'pre-wrap' }}>{item.student_answer}</span> : <em>none</em>}
      </p>
      <p>
        {item.pending ? (
          <strong>Awaiting grading</strong>
        ) : question ? (
          `${item.marks_awarded} of ${plural(question.marks, 'mark')}`
        ) : (
          plural(item.marks_awarded, 'mark')
        )}
      </p>
      {item.feedback ? <p>Feedback: {item.feedback}</p> : null}
    </>
  );
}

/**
 * An answer marked by its key: the answer as the taker entered it (`entered`), right or not, the
 * marks, then the key as the type shows it (`shown`) with the rest of what the released key says.
 */
export function KeyedReview({
  item,
  question,
  entered,
  shown,
}: ReviewProps & { entered: (answer: string) => ReactNode; shown: (answer: string) => ReactNode }) {
  return (
    <>
      <p>
        Your answer: {item.answered ? entered(item.student_answer ?? '') : <em>none</em>} —{' '}
        {item.correct ? 'correct' : 'not correct'}, {plural(item.marks_awarded, 'mark')}
      </p>
      <p>
        Correct answer: {shown(item.correct_answer ?? '')}
        {item.tolerance ? ` (± ${item.tolerance})` : ''}
        {item.case_sensitive ? ' (case matters)' : ''}
      </p>
      <KeyDetails item={item} options={question?.options ?? []} />
    </>
  );
}

const percent = (credit: number) => `${credit < 0 ? '−' : ''}${Math.abs(credit)}%`;

/** The rest of a released key: further accepted answers and their credit, a multiple select's credit per option. */
function KeyDetails({ item, options }: { item: ReviewItem; options: string[] }) {
  const alternatives = item.alternatives ?? [];
  const credits = item.option_credits ?? [];
  return (
    <>
      {alternatives.length > 0 && (
        <p>
          Also accepted:{' '}
          {alternatives
            .map((a) => `${a.answer}${a.tolerance ? ` (± ${a.tolerance})` : ''} for ${percent(a.credit)}`)
            .join('; ')}
        </p>
      )}
      {credits.length > 0 && (
        <p>Credit per option: {options.map((option, i) => `${option} ${percent(credits[i] ?? 0)}`).join('; ')}</p>
      )}
    </>
  );
}

/** The review of a choice among options: the option chosen and the key as the options are shown (HTML in an html question). */
export const ChoiceReview = (props: ReviewProps & { shownAs?: (answer: string) => string }) => {
  const show = (answer: string) => (
    <QuestionText text={(props.shownAs ?? asStored)(answer)} format={props.question?.text_format} />
  );
  return <KeyedReview {...props} entered={show} shown={show} />;
};

/** The review of a type whose answers and keys are shown as stored. */
export const StoredAnswerReview = (props: ReviewProps) => (
  <KeyedReview {...props} entered={asStored} shown={asStored} />
);
