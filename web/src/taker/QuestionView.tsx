import { useId } from 'react';
import type { Schemas } from '../api';
import { type AnswerFiles, takerPartsOf, takesAnswer } from '../questionTypes';
import { QuestionText } from '../QuestionText';
import { marksText } from '../ui';

/** One question, answered by the control its type calls for; a description is its text alone, unnumbered and with no marks. */
export function QuestionView({
  question,
  number,
  value,
  disabled,
  onAnswer,
  files,
}: {
  question: Schemas['AttemptQuestion'];
  number: number;
  value: string;
  disabled: boolean;
  onAnswer: (value: string) => void;
  /** Its attached files, when it takes files. */
  files?: AnswerFiles;
}) {
  if (!takesAnswer(question.question_type))
    return (
      <div className="passage">
        <QuestionText text={question.question_text} format={question.text_format} block />
      </div>
    );
  const { legendNote, textInAnswer, TakerInput } = takerPartsOf(question.question_type);
  // HTML text has blocks (paragraphs, images) that a legend drawn on the border cannot hold.
  const className = question.text_format === 'html' ? 'rich' : undefined;
  return (
    <fieldset disabled={disabled} className={className}>
      <legend>
        <span className="qnum">{number}.</span>{' '}
        {/* A text whose gaps or phrases are the answer is shown once, by the answer's controls. */}
        {textInAnswer ? null : (
          <>
            <QuestionText text={question.question_text} format={question.text_format} />{' '}
          </>
        )}
        <span className="marks">({marksText(question.marks)})</span>
        {legendNote !== null ? (
          <>
            {' '}
            <span className="select-all">{legendNote}</span>
          </>
        ) : null}
      </legend>
      <TakerInput
        question={question}
        name={`q-${question.id}`}
        label={`Answer to question ${number}`}
        value={value}
        onAnswer={onAnswer}
        files={files}
      />
    </fieldset>
  );
}

/** A passage, once beside the questions that share it: a region named by its heading, read before them. */
export function PassageView({ passage, numbers }: { passage: Schemas['AttemptPassage']; numbers: number[] }) {
  const headingId = useId();
  const first = numbers[0];
  const last = numbers[numbers.length - 1];
  const which =
    first === undefined ? '' : first === last ? ` for question ${first}` : ` for questions ${first}–${last}`;
  return (
    <section className="passage-aside" aria-labelledby={headingId}>
      <h2 id={headingId}>Passage{which}</h2>
      <QuestionText text={passage.question_text} format={passage.text_format} block />
    </section>
  );
}
