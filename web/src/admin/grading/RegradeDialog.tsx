import { useEffect, useRef, useState } from 'react';
import { type Schemas, unwrap } from '../../api';
import { useSession } from '../../session';
import { ErrorMessage, Field, marksText, ScrollTable, useAction } from '../../ui';
import { QuestionText, richFields } from '../../QuestionText';
import { findQuestionType, typeLabel } from '../../questionTypes';

type Question = Pick<
  Schemas['QuestionAnalytics'],
  'question_id' | 'question_text' | 'question_type' | 'marks' | 'position' | 'option_counts'
>;
type Result = Schemas['RegradeResult'];

const pct = (n: number) => `${Number(n.toFixed(1))}%`;

/**
 * Corrects one question of a published version (its key, tolerance or marks): "Preview" lists the
 * submitted attempts whose score would change (a dry run, nothing written), "Apply" corrects it and
 * rescores them. A native modal <dialog>: focus stays inside, Escape closes it.
 */
export function RegradeDialog({
  testId,
  version,
  question,
  onClose,
  onApplied,
}: {
  testId: string;
  version: number;
  question: Question;
  onClose: () => void;
  onApplied: () => void;
}) {
  const { api } = useSession();
  const dialog = useRef<HTMLDialogElement>(null);
  const [answer, setAnswer] = useState('');
  const [tolerance, setTolerance] = useState('');
  const [marks, setMarks] = useState('');
  const [preview, setPreview] = useState<{ result: Result; inputs: string } | null>(null);
  const [applied, setApplied] = useState<Result | null>(null);
  const action = useAction();
  useEffect(() => {
    const element = dialog.current;
    // Taken out of the page with the component: no close() here (its close event would come after a remount).
    if (element && !element.open) element.showModal();
  }, []);

  const questionType = findQuestionType(question.question_type);
  const toleranceInKey = questionType?.toleranceInKey === true;
  const inputs = JSON.stringify([answer, tolerance, marks]);
  const send = (dryRun: boolean) =>
    action.run(async () => {
      const result = await unwrap(
        api.POST('/api/tests/{testId}/versions/{version}/regrade', {
          params: { path: { testId, version } },
          body: {
            question_id: question.question_id,
            ...(answer.trim() ? { correct_answer: answer.trim() } : {}),
            ...(toleranceInKey && tolerance.trim() ? { tolerance: Number(tolerance) } : {}),
            ...(marks.trim() ? { marks: Number(marks) } : {}),
            dry_run: dryRun,
          },
        }),
      );
      if (dryRun) setPreview({ result, inputs });
      else {
        setApplied(result);
        onApplied();
      }
    });
  const previewed = preview?.inputs === inputs ? preview.result : null;
  const options = question.option_counts?.map((o) => o.option) ?? [];

  return (
    <dialog
      ref={dialog}
      aria-labelledby="regrade-heading"
      style={{
        maxWidth: '760px',
        width: '90vw',
        border: '1px solid #d7dce3',
        borderRadius: '10px',
        padding: '1rem 1.2rem',
      }}
      onClose={onClose}
    >
      <h2 id="regrade-heading">Regrade question {question.position}</h2>
      <p>
        <QuestionText text={question.question_text} format={richFields(question).text_format} />{' '}
        <small>
          ({typeLabel(question.question_type)} · {marksText(question.marks)} · version {version})
        </small>
      </p>
      {applied ? (
        <>
          <p role="status">
            Applied{applied.corrected ? '' : ' (the version already held this correction)'}: {applied.changed.length} of{' '}
            {applied.attempts_checked} submitted {applied.attempts_checked === 1 ? 'attempt' : 'attempts'} changed.
            Version {version} is now at revision {applied.revision}.
          </p>
          <Changes result={applied} caption="Attempts whose score changed" />
        </>
      ) : (
        <form
          aria-label="Correction"
          onSubmit={(e) => {
            e.preventDefault();
            void send(true);
          }}
        >
          <p className="note">
            Fill in only what changes. Preview first: it lists the attempts whose score would change and writes nothing.
          </p>
          <div className="row">
            <Field
              label="New correct answer"
              hint={`${questionType?.regradeKeyHint ?? 'As the bank takes it'}${options.length > 0 ? `: ${options.join(', ')}` : ''}`}
            >
              <input value={answer} onChange={(e) => setAnswer(e.target.value)} autoComplete="off" />
            </Field>
            {toleranceInKey && (
              <Field label="New tolerance">
                <input
                  type="number"
                  min="0"
                  step="any"
                  value={tolerance}
                  onChange={(e) => setTolerance(e.target.value)}
                />
              </Field>
            )}
            <Field label="New marks">
              <input type="number" min="0" step="any" value={marks} onChange={(e) => setMarks(e.target.value)} />
            </Field>
          </div>
          <div className="row">
            <button type="submit" disabled={action.busy}>
              Preview
            </button>
            <button type="button" disabled={action.busy || !previewed} onClick={() => void send(false)}>
              Apply
            </button>
          </div>
          {previewed && (
            <>
              <p role="status">
                Preview: {previewed.changed.length} of {previewed.attempts_checked} submitted{' '}
                {previewed.attempts_checked === 1 ? 'attempt' : 'attempts'} would change.
              </p>
              <Changes result={previewed} caption="Attempts whose score would change" />
            </>
          )}
        </form>
      )}
      <ErrorMessage error={action.error} />
      <p>
        <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </p>
    </dialog>
  );
}

function Changes({ result, caption }: { result: Result; caption: string }) {
  if (result.changed.length === 0) return null;
  return (
    <ScrollTable label={caption}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Taker</th>
          <th scope="col">Before</th>
          <th scope="col">After</th>
        </tr>
      </thead>
      <tbody>
        {result.changed.map((c) => (
          <tr key={c.attempt_id} data-attempt-id={c.attempt_id}>
            <td>{c.guest_name ? `${c.guest_name} (guest)` : `Student ${c.student_id}`}</td>
            <td>
              {c.before.score} of {c.before.total_marks} ({pct(c.before.percentage)})
            </td>
            <td>
              {c.after.score} of {c.after.total_marks} ({pct(c.after.percentage)})
            </td>
          </tr>
        ))}
      </tbody>
    </ScrollTable>
  );
}
