import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { type Schemas, unwrap } from '../../api';
import { useSession } from '../../session';
import { ErrorMessage, formatTime, Loading, marksText, ScrollTable, useAction, useLoad } from '../../ui';
import { Pager } from '../shared';
import { RegradeDialog } from '../grading/RegradeDialog';
import { numbered } from './numbering';
import { useOrg } from '../org';
import { ClassFilter, useClassFilter } from '../classes/ClassFilter';
import { ScoreChart } from './ScoreChart';
import { QuestionText, richFields } from '../../QuestionText';
import { choiceLabelOf } from '../../questionHtml';
import { findQuestionType, typeLabel } from '../../questionTypes';
import { personWithEmail } from '../people';

type QuestionAnalytics = Schemas['QuestionAnalytics'];

/** Thresholds from docs/analytics.md: facility near 1 or near 0, discrimination below 20. */
const TOO_EASY = 0.9;
const TOO_HARD = 0.2;
const WEAK_DISCRIMINATION = 20;
/** Below this many answers, an option nobody picked says little about it. */
const DISTRACTOR_MIN_ANSWERS = 10;

/** Why a question needs a look, if it does; a question nobody answered yet has no flags. */
function flagsOf(q: QuestionAnalytics): string[] {
  if (q.times_answered === 0) return [];
  const flags: string[] = [];
  if (q.facility_index !== null && q.facility_index >= TOO_EASY) flags.push('Too easy');
  if (q.facility_index !== null && q.facility_index <= TOO_HARD) flags.push('Too hard');
  if (q.discrimination_index !== null && q.discrimination_index < WEAK_DISCRIMINATION)
    flags.push('Does not separate strong from weak');
  const unused = (q.option_counts ?? [])
    .filter((o) => o.count === 0)
    .map((o) => choiceLabelOf(o.option, richFields(q).text_format));
  if (unused.length > 0 && q.times_answered >= DISTRACTOR_MIN_ANSWERS) flags.push(`Never chosen: ${unused.join(', ')}`);
  return flags;
}

const num = (n: number | null | undefined, digits = 2) =>
  n === null || n === undefined ? '—' : String(Number(n.toFixed(digits)));
const pct = (n: number | null | undefined) => (n === null || n === undefined ? '—' : `${num(n, 1)}%`);

/** Analytics of a test: headline figures, the score distribution, the questions, the CSV of results and the students. */
export function AnalyticsPage() {
  const { testId = '' } = useParams();
  const { api } = useSession();
  const [classId, setClassId] = useClassFilter();
  const analytics = useLoad(
    () =>
      unwrap(
        api.GET('/api/analytics/tests/{testId}', {
          params: { path: { testId }, query: { class_id: classId || undefined } },
        }),
      ),
    [api, testId, classId],
  );
  const a = analytics.data;
  const [regrading, setRegrading] = useState<QuestionAnalytics | null>(null);
  // Raised by an applied regrade: the figures and the attempts' scores are read again.
  const [regrades, setRegrades] = useState(0);
  return (
    <>
      <h1>Analytics{a ? `: ${a.test_name}` : ''}</h1>
      <p>
        <Link to={`/admin/tests/${encodeURIComponent(testId)}`}>Back to the test</Link> ·{' '}
        <Link to={`/admin/tests/${encodeURIComponent(testId)}/live`}>Live sitting</Link> ·{' '}
        <Link to={`/admin/tests/${encodeURIComponent(testId)}/grading`}>Grade essays</Link>
      </p>
      <ClassFilter value={classId} onChange={setClassId} />
      {classId && <p className="note">Only the attempts of this class’s members (their classes when they started).</p>}
      <ErrorMessage error={analytics.error} />
      {!a && analytics.loading && <Loading what="Loading the analytics" />}
      {a && (
        <>
          <Headline a={a} />
          <CsvDownload testId={testId} testName={a.test_name} classId={classId} />
          <Distribution a={a} />
          <Difficulty a={a} />
          <Questions questions={numbered(a.questions)} onRegrade={a.version === null ? undefined : setRegrading} />
          <Parts questions={numbered(a.questions)} />
          <Takers key={`${regrades}-${classId}`} testId={testId} classId={classId} />
        </>
      )}
      {a && a.version !== null && regrading && (
        <RegradeDialog
          testId={testId}
          version={a.version}
          question={regrading}
          onClose={() => setRegrading(null)}
          onApplied={() => {
            analytics.reload();
            setRegrades((n) => n + 1);
          }}
        />
      )}
    </>
  );
}

function Headline({ a }: { a: Schemas['TestAnalytics'] }) {
  const figures: Array<[string, string]> = [
    [
      'Version',
      a.version === null
        ? '—'
        : `${a.version}${a.latest_version !== null && a.latest_version !== a.version ? ` (latest ${a.latest_version})` : ''}`,
    ],
    ['Questions', String(a.question_count)],
    ['Total marks', num(a.total_marks)],
    ['Attempts', String(a.total_attempts)],
    ['Submitted', String(a.completed)],
    ['Awaiting grading', String(a.pending_grading)],
    ['In progress', String(a.in_progress)],
    ['Closed at the deadline', String(a.auto_submitted)],
    ['Average score', num(a.average_score)],
    ['Average percentage', pct(a.average_percentage)],
    ['Highest score', num(a.highest_score)],
    ['Lowest score', num(a.lowest_score)],
    ['Standard deviation', num(a.standard_deviation)],
    ['Cronbach’s alpha', num(a.cronbach_alpha, 3)],
  ];
  return (
    <section aria-labelledby="headline" className="card">
      <h2 id="headline">Headline figures</h2>
      <dl className="figures">
        {figures.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {a.pending_grading > 0 && (
        <p className="note">
          {a.pending_grading} submitted {a.pending_grading === 1 ? 'attempt has' : 'attempts have'} essays awaiting a
          grade: the figures count {a.pending_grading === 1 ? 'it' : 'them'} once graded.{' '}
          <Link to={`/admin/tests/${encodeURIComponent(a.test_id)}/grading`}>Grade them</Link>
        </p>
      )}
      {a.cronbach_alpha !== null && a.cronbach_alpha < 0.7 && (
        <p className="warning">
          Cronbach’s alpha is below 0.7: the questions may not measure the same thing (or there are few takers).
        </p>
      )}
    </section>
  );
}

function CsvDownload({ testId, testName, classId }: { testId: string; testName: string; classId: string }) {
  const { api } = useSession();
  const download = useAction();
  const run = () =>
    download.run(async () => {
      const blob = await unwrap(
        api.GET('/api/analytics/tests/{testId}/results.csv', {
          params: { path: { testId }, query: { class_id: classId || undefined } },
          parseAs: 'blob',
        }),
      );
      const url = URL.createObjectURL(blob as Blob);
      const link = document.createElement('a');
      link.href = url;
      const base = testName.replace(/[^A-Za-z0-9._-]+/g, '-');
      link.download = classId ? `${base}-class-results.csv` : `${base}-results.csv`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    });
  return (
    <p>
      <button type="button" onClick={run} disabled={download.busy}>
        {download.busy ? 'Preparing the CSV…' : classId ? 'Download results CSV of this class' : 'Download results CSV'}
      </button>
      <ErrorMessage error={download.error} />
    </p>
  );
}

function Distribution({ a }: { a: Schemas['TestAnalytics'] }) {
  const bands = a.score_distribution;
  const labels = useMemo(() => bands.map((b) => `${b.from_percent}–${b.to_percent}%`), [bands]);
  const counts = useMemo(() => bands.map((b) => b.count), [bands]);
  return (
    <section aria-labelledby="distribution" className="card">
      <h2 id="distribution">Score distribution</h2>
      <div className="chart">
        <ScoreChart
          labels={labels}
          counts={counts}
          title={`Score distribution of ${a.completed} submitted attempts, by percentage band`}
        />
      </div>
      <ScrollTable label="Attempts per percentage band">
        <caption>Submitted attempts per percentage band</caption>
        <thead>
          <tr>
            <th scope="col">Percentage</th>
            <th scope="col">Attempts</th>
          </tr>
        </thead>
        <tbody>
          {bands.map((b, i) => (
            <tr key={labels[i]}>
              <td>{labels[i]}</td>
              <td>{b.count}</td>
            </tr>
          ))}
        </tbody>
      </ScrollTable>
    </section>
  );
}

function Difficulty({ a }: { a: Schemas['TestAnalytics'] }) {
  const entries = Object.entries(a.difficulty_analysis);
  if (entries.length === 0) return null;
  return (
    <section aria-labelledby="difficulty" className="card">
      <h2 id="difficulty">By difficulty label</h2>
      <ScrollTable label="By difficulty label">
        <thead>
          <tr>
            <th scope="col">Difficulty</th>
            <th scope="col">Questions</th>
            <th scope="col">Answered</th>
            <th scope="col">Correct</th>
            <th scope="col">Share correct</th>
          </tr>
        </thead>
        <tbody>
          {entries.map(([label, d]) => (
            <tr key={label}>
              <td>{label}</td>
              <td>{d.questions}</td>
              <td>{d.answered}</td>
              <td>{d.correct}</td>
              <td>{d.correct_rate === null ? '—' : pct(d.correct_rate * 100)}</td>
            </tr>
          ))}
        </tbody>
      </ScrollTable>
    </section>
  );
}

function Questions({
  questions,
  onRegrade,
}: {
  questions: QuestionAnalytics[];
  onRegrade?: (question: QuestionAnalytics) => void;
}) {
  return (
    <section aria-labelledby="per-question" className="card">
      <h2 id="per-question">Per question</h2>
      <p className="note">
        Facility: the average mark as a share of the question’s marks (1 = everyone full marks). Discrimination: how
        well the question separates strong from weak takers (× 100; below {WEAK_DISCRIMINATION} it hardly does). Flagged
        rows need a look.
      </p>
      <ScrollTable label="Per question figures" className="questions-table">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Question</th>
            <th scope="col">Difficulty</th>
            <th scope="col">Seen</th>
            <th scope="col">Answered</th>
            <th scope="col">Correct</th>
            <th scope="col">Facility</th>
            <th scope="col">Discrimination</th>
            <th scope="col">Options chosen</th>
            <th scope="col">Flags</th>
            {onRegrade && (
              <th scope="col">
                <span className="sr-only">Regrade</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {questions.map((q) => {
            const flags = flagsOf(q);
            return (
              <tr key={q.question_id} className={flags.length > 0 ? 'flagged' : undefined} data-question-row>
                <td>{q.position}</td>
                <td>
                  <QuestionText text={q.question_text} format={richFields(q).text_format} />
                  <br />
                  <small>
                    {typeLabel(q.question_type)} · {marksText(q.marks)}
                  </small>
                </td>
                <td>{q.difficulty}</td>
                <td>{q.times_seen}</td>
                <td>{q.times_answered}</td>
                <td>{q.times_correct}</td>
                <td>{num(q.facility_index)}</td>
                <td>{num(q.discrimination_index, 1)}</td>
                <td>
                  <ChoiceCounts counted={q} format={richFields(q).text_format} />
                </td>
                <td>{flags.length > 0 ? flags.join('; ') : 'None'}</td>
                {onRegrade && (
                  <td>
                    {findQuestionType(q.question_type)?.markedByPerson ? (
                      <small>Graded by a person</small>
                    ) : findQuestionType(q.question_type)?.takesAnswer === false ? (
                      <small>No answer to regrade</small>
                    ) : (
                      <button
                        type="button"
                        className="secondary"
                        onClick={() => onRegrade(q)}
                        aria-label={`Regrade question ${q.position}`}
                      >
                        Regrade…
                      </button>
                    )}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </ScrollTable>
    </section>
  );
}

/** How often each choice was made, and the answers matching none; a dash when there are no choices. */
function ChoiceCounts({
  counted,
  format,
}: {
  counted: Pick<QuestionAnalytics, 'option_counts' | 'other_choices'>;
  format: ReturnType<typeof richFields>['text_format'];
}) {
  if (!counted.option_counts) return <>—</>;
  return (
    <ul className="plain option-counts">
      {counted.option_counts.map((o) => (
        <li key={o.option}>
          <QuestionText text={o.option} format={format} />: {o.count}
        </li>
      ))}
      {counted.other_choices ? <li>Other: {counted.other_choices}</li> : null}
    </ul>
  );
}

/**
 * Per question with parts (a matching's stems, the gaps, an ordering's items, a hotspot's correct
 * areas, a calculated answer's distance from the right one), a table with a row per part: how
 * often it was answered, its facility and the choices made, as the question's own row shows them.
 */
function Parts({ questions }: { questions: QuestionAnalytics[] }) {
  const withParts = questions.filter((q) => q.parts && q.parts.length > 0);
  if (withParts.length === 0) return null;
  return (
    <section aria-labelledby="per-part" className="card">
      <h2 id="per-part">Per part</h2>
      <p className="note">
        Facility of a part: the share of it earned over the attempts that saw the question (an ordering’s item counts
        when it stands in its own place, whatever the scoring).
      </p>
      {withParts.map((q) => (
        <ScrollTable key={q.question_id} label={`Parts of question ${q.position}`} className="parts-table">
          <caption>
            Question {q.position}: <QuestionText text={q.question_text} format={richFields(q).text_format} />
          </caption>
          <thead>
            <tr>
              <th scope="col">Part</th>
              <th scope="col">Answered</th>
              <th scope="col">Facility</th>
              <th scope="col">Choices made</th>
            </tr>
          </thead>
          <tbody>
            {(q.parts ?? []).map((part, i) => (
              <tr key={i}>
                <th scope="row">
                  <QuestionText text={part.label} format={richFields(q).text_format} />
                </th>
                <td>{part.times_answered}</td>
                <td>{num(part.facility_index)}</td>
                <td>
                  <ChoiceCounts counted={part} format={richFields(q).text_format} />
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      ))}
    </section>
  );
}

/** The submitted attempts of the test, each linked to its student's page. */
function Takers({ testId, classId }: { testId: string; classId: string }) {
  const { api, me } = useSession();
  const { clientId } = useOrg();
  const [page, setPage] = useState(1);
  const clientParam = me?.role === 'super_admin' && clientId ? { client_id: clientId } : {};
  const list = useLoad(
    () =>
      unwrap(
        api.GET('/api/attempts', {
          params: {
            query: {
              test_id: testId,
              status: 'submitted',
              page,
              limit: 20,
              ...clientParam,
              class_id: classId || undefined,
            },
          },
        }),
      ),
    [api, testId, page, clientId, classId],
  );
  return (
    <section aria-labelledby="takers" className="card">
      <h2 id="takers">Submitted attempts</h2>
      <ErrorMessage error={list.error} />
      {list.data && (
        <ScrollTable label="Submitted attempts">
          <thead>
            <tr>
              <th scope="col">Taker</th>
              <th scope="col">Score</th>
              <th scope="col">Submitted</th>
              <th scope="col">By</th>
            </tr>
          </thead>
          <tbody>
            {list.data.data.length === 0 && (
              <tr>
                <td colSpan={4}>No attempt is submitted yet.</td>
              </tr>
            )}
            {list.data.data.map((t) => (
              <tr key={t.attempt_id}>
                <td>
                  {t.guest ? (
                    `${t.guest_name ?? 'Guest'} (guest)`
                  ) : (
                    <Link to={`/admin/students/${encodeURIComponent(t.student_id)}`}>
                      {personWithEmail({ name: t.student_name, email: t.student_email, uid: t.student_id })}
                    </Link>
                  )}
                </td>
                <td>
                  {num(t.score)} of {num(t.total_marks)}
                </td>
                <td>{formatTime(t.submitted_at)}</td>
                <td>{t.submitted_by ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
      <Pager pagination={list.data?.pagination} page={page} onPage={setPage} what="submitted attempts" />
    </section>
  );
}
