import { useEffect, useId, useState } from 'react';
import { type Schemas, unwrap } from '../../api';
import { noProblems, problemsFrom, type FieldLabels, type Problems } from '../../fieldErrors';
import { CheckedField, formProblems, FormSummary, ProblemText } from '../../FormProblems';
import { useSession } from '../../session';
import { ErrorMessage, plural, useAction, useLoad } from '../../ui';
import { BankPicker } from './BankPicker';
import { plainTextOf } from '../../questionHtml';

type Test = Schemas['Test'];
type Question = Schemas['Question'];
type Difficulty = NonNullable<Schemas['TestPoolInput']['difficulty']>;
const DIFFICULTIES: Difficulty[] = ['easy', 'medium', 'hard'];

/** A pool as the form holds it: the draw as typed, the difficulty '' for any. */
interface PoolDraft {
  key: number;
  folder_id: string;
  difficulty: Difficulty | '';
  draw: string;
}
let nextPoolKey = 1;
const draftOf = (pool: Schemas['TestPool']): PoolDraft => ({
  key: nextPoolKey++,
  folder_id: pool.folder_id,
  difficulty: pool.difficulty ?? '',
  draw: String(pool.draw),
});
const poolInput = (pool: PoolDraft): Schemas['TestPoolInput'] => ({
  folder_id: pool.folder_id,
  difficulty: pool.difficulty || null,
  draw: Number(pool.draw),
});
const drawOf = (pool: PoolDraft) => (Number.isFinite(Number(pool.draw)) ? Number(pool.draw) : 0);

/**
 * The body of PUT /api/tests/{id}: the test's content as it is, with `changes`. The delivery settings are
 * not sent: PUT keeps them, and the sitting form (PATCH) is their one editor, so a save here never moves them.
 */
function replaceBody(test: Test, changes: Partial<Schemas['ReplaceTest']>): Schemas['ReplaceTest'] {
  return {
    test_name: test.test_name,
    timer: test.timer,
    shuffle: test.shuffle,
    allow_review: test.allow_review,
    negative_marking: test.negative_marking,
    question_ids: test.question_ids,
    pools: test.pools,
    description: test.description,
    max_attempts: test.max_attempts,
    negative_mark_ratio: test.negative_mark_ratio,
    folder_id: test.folder_id,
    ...changes,
  };
}

/** The content form's fields by body path (a publish refusal names them too), with their labels. */
function labelsOf(poolCount: number): FieldLabels {
  const labels: FieldLabels = {
    test_name: 'Test name',
    timer: 'Timer (minutes)',
    max_attempts: 'Attempts per student',
    negative_mark_ratio: 'Negative mark ratio',
    description: 'Description',
    question_ids: 'Questions of the test',
    pools: 'Random draws',
  };
  for (let i = 0; i < poolCount; i++) {
    labels[`pools.${i}`] = `Pool ${i + 1}`;
    labels[`pools.${i}.folder_id`] = `Pool ${i + 1}: Folder`;
    labels[`pools.${i}.difficulty`] = `Pool ${i + 1}: Difficulty`;
    labels[`pools.${i}.draw`] = `Pool ${i + 1}: Questions drawn`;
  }
  return labels;
}

/** The delivery-free content as the test holds it, for telling whether the form changed it. */
const storedContent = (test: Test) =>
  replaceBody(test, {
    description: test.description || null,
    pools: test.pools.map((p) => ({ folder_id: p.folder_id, difficulty: p.difficulty ?? null, draw: p.draw })),
  });

/**
 * A test's fields and its ordered questions: editable while it is a draft (PUT), read only otherwise.
 * *Publish* is here, beside the content it publishes: with unsaved changes it saves them first.
 * `saveWith` saves elsewhere instead (a published test's new version, published from its own card),
 * and makes the form editable.
 */
export function TestContent({
  test,
  onSaved,
  saveWith,
}: {
  test: Test;
  onSaved: (test: Test) => void;
  saveWith?: (body: Schemas['ReplaceTest']) => Promise<Test>;
}) {
  const { api } = useSession();
  const editable = saveWith !== undefined || test.status === 'draft';
  const action = useAction();
  const [saved, setSaved] = useState(false);
  const [name, setName] = useState(test.test_name);
  const [description, setDescription] = useState(test.description ?? '');
  const [timer, setTimer] = useState(test.timer == null ? '' : String(test.timer));
  const [maxAttempts, setMaxAttempts] = useState(test.max_attempts == null ? '' : String(test.max_attempts));
  const [shuffle, setShuffle] = useState(test.shuffle === 1);
  const [allowReview, setAllowReview] = useState(test.allow_review === 1);
  const [negative, setNegative] = useState(test.negative_marking === 1);
  const [ratio, setRatio] = useState(String(test.negative_mark_ratio));
  const [ids, setIds] = useState<string[]>(test.question_ids);
  const [known, setKnown] = useState<Map<string, Question>>(new Map());
  const [pools, setPools] = useState<PoolDraft[]>(() => test.pools.map(draftOf));
  const [local, setLocal] = useState<Problems>(noProblems);
  // What the last press tried, for the alert's words: "Not saved" or "Not published".
  const [pressed, setPressed] = useState<'save' | 'publish'>('save');
  const labels = labelsOf(pools.length);
  const problems = formProblems(local, action.error, labels);
  const at = (field: string) => problems.fields[field];
  const questionsId = useId();
  const poolsId = useId();

  // The chosen questions not on the bank's page: read one by one, for their text.
  const [missingError, setMissingError] = useState<unknown>(null);
  useEffect(() => {
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length === 0) return;
    let live = true;
    Promise.all(
      missing.map((id) => unwrap(api.GET('/api/questions/{questionId}', { params: { path: { questionId: id } } }))),
    ).then(
      (qs) => live && setKnown((prev) => new Map([...prev, ...qs.map((q) => [q.id, q] as const)])),
      (err) => live && setMissingError(err),
    );
    return () => {
      live = false;
    };
  }, [api, ids, known]);

  const move = (index: number, by: number) =>
    setIds((prev) => {
      const next = [...prev];
      const [id] = next.splice(index, 1);
      next.splice(index + by, 0, id);
      return next;
    });
  const body = () =>
    replaceBody(test, {
      test_name: name,
      description: description || null,
      timer: timer ? Number(timer) : null,
      max_attempts: maxAttempts ? Number(maxAttempts) : null,
      shuffle: shuffle ? 1 : 0,
      allow_review: allowReview ? 1 : 0,
      negative_marking: negative ? 1 : 0,
      negative_mark_ratio: Number(ratio),
      question_ids: ids,
      pools: pools.map(poolInput),
    });
  const dirty = editable && JSON.stringify(body()) !== JSON.stringify(storedContent(test));
  const put = () =>
    saveWith
      ? saveWith(body())
      : unwrap(api.PUT('/api/tests/{testId}', { params: { path: { testId: test.id } }, body: body() }));
  const save = () => {
    setPressed('save');
    setLocal(noProblems);
    return action.run(async () => {
      setSaved(false);
      const updated = await put();
      setSaved(true);
      onSaved(updated);
    });
  };
  // What publishing needs that the form can see; the service checks the rest (a pool's folder holding enough).
  const publish = () => {
    setPressed('publish');
    const found = problemsFrom({
      question_ids:
        ids.length === 0 &&
        pools.length === 0 &&
        'Add at least one question from the bank below (or a random draw) before publishing.',
      timer: !timer && 'Set a timer, in minutes, before publishing.',
    });
    setLocal(found);
    if (Object.keys(found.fields).length > 0) {
      action.clear();
      return;
    }
    return action.run(async () => {
      setSaved(false);
      // Unsaved changes are saved first: what is published is what the form shows.
      if (dirty) onSaved(await put());
      onSaved(await unwrap(api.POST('/api/tests/{testId}/publish', { params: { path: { testId: test.id } } })));
    });
  };
  const textOf = (id: string) => {
    const q = known.get(id);
    return q ? plainTextOf(q.question_text, q.text_format) : id;
  };

  return (
    <section className="card" aria-labelledby="content-heading">
      <h2 id="content-heading">Content</h2>
      {!editable && (
        <p className="note">
          Only a draft is edited here: edit a published test as a new version, or restore an archived one to a draft.
        </p>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <fieldset disabled={!editable}>
          <legend>Test fields</legend>
          <div className="row">
            <CheckedField label="Test name" problems={at('test_name')}>
              <input required value={name} onChange={(e) => setName(e.target.value)} />
            </CheckedField>
            <CheckedField label="Timer (minutes)" problems={at('timer')}>
              <input type="number" min="1" max="1440" value={timer} onChange={(e) => setTimer(e.target.value)} />
            </CheckedField>
            <CheckedField label="Attempts per student" problems={at('max_attempts')} hint="Empty: unlimited">
              <input type="number" min="1" value={maxAttempts} onChange={(e) => setMaxAttempts(e.target.value)} />
            </CheckedField>
            <CheckedField label="Negative mark ratio" problems={at('negative_mark_ratio')}>
              <input
                type="number"
                min="0"
                max="1"
                step="0.05"
                value={ratio}
                onChange={(e) => setRatio(e.target.value)}
              />
            </CheckedField>
          </div>
          <CheckedField label="Description" problems={at('description')}>
            <textarea rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />
          </CheckedField>
          <label className="option">
            <input type="checkbox" checked={shuffle} onChange={(e) => setShuffle(e.target.checked)} /> Shuffle questions
            and options
          </label>
          <label className="option">
            <input type="checkbox" checked={allowReview} onChange={(e) => setAllowReview(e.target.checked)} /> Allow
            review after submission
          </label>
          <label className="option">
            <input type="checkbox" checked={negative} onChange={(e) => setNegative(e.target.checked)} /> Negative
            marking
          </label>
        </fieldset>
        <h3 id={`${questionsId}-heading`} aria-describedby={at('question_ids') ? questionsId : undefined}>
          Questions of the test ({ids.length})
        </h3>
        <ProblemText id={questionsId} messages={at('question_ids')} />
        <ErrorMessage error={missingError} />
        {ids.length === 0 ? (
          <p>No question yet{editable ? ': add some from the bank below.' : '.'}</p>
        ) : (
          <ol>
            {ids.map((id, i) => (
              <li key={id}>
                {textOf(id)}
                {editable && (
                  <span className="row inline-actions">
                    <button
                      type="button"
                      className="secondary"
                      disabled={i === 0}
                      onClick={() => move(i, -1)}
                      aria-label={`Move up: ${textOf(id)}`}
                    >
                      Move up
                    </button>
                    <button
                      type="button"
                      className="secondary"
                      disabled={i === ids.length - 1}
                      onClick={() => move(i, 1)}
                      aria-label={`Move down: ${textOf(id)}`}
                    >
                      Move down
                    </button>
                    <button
                      type="button"
                      className="danger"
                      onClick={() => setIds(ids.filter((x) => x !== id))}
                      aria-label={`Remove: ${textOf(id)}`}
                    >
                      Remove
                    </button>
                  </span>
                )}
              </li>
            ))}
          </ol>
        )}
        <Pools
          clientId={test.client_id}
          pools={pools}
          onChange={setPools}
          editable={editable}
          problems={problems}
          problemsId={poolsId}
        />
        <p data-testid="question-count">
          Each attempt holds{' '}
          <strong>{plural(ids.length + pools.reduce((sum, p) => sum + drawOf(p), 0), 'question')}</strong>: {ids.length}{' '}
          fixed
          {pools.length > 0 ? ` and ${pools.reduce((sum, p) => sum + drawOf(p), 0)} drawn at random` : ''}.
        </p>
        {editable && (
          <div className="row">
            <button type="submit" disabled={action.busy}>
              Save test
            </button>
            {/* A new version is published from its own card, which names the version. */}
            {!saveWith && (
              <button type="button" disabled={action.busy} onClick={() => void publish()}>
                {dirty ? 'Save and publish' : 'Publish'}
              </button>
            )}
          </div>
        )}
        {dirty && !saveWith && (
          <p className="note" data-testid="unsaved">
            Unsaved changes: <em>Save and publish</em> saves them, then publishes.
          </p>
        )}
        {saved && <p role="status">Test saved.</p>}
        <FormSummary
          error={action.error}
          problems={problems}
          labels={labels}
          not={pressed === 'publish' ? 'published' : 'saved'}
        />
      </form>
      {editable && (
        <BankPicker
          clientId={test.client_id}
          chosen={ids}
          onAdd={(id) => setIds((prev) => (prev.includes(id) ? prev : [...prev, id]))}
          onLoaded={(questions) => setKnown((prev) => new Map([...prev, ...questions.map((q) => [q.id, q] as const)]))}
        />
      )}
    </section>
  );
}

/**
 * The test's random draws: each attempt draws `draw` questions from a folder (of one difficulty, or any).
 * Publishing freezes each pool's questions; a draw larger than its pool is refused then, naming pools.<i>.
 */
function Pools({
  clientId,
  pools,
  onChange,
  editable,
  problems,
  problemsId,
}: {
  clientId: string;
  pools: PoolDraft[];
  onChange: (pools: PoolDraft[]) => void;
  editable: boolean;
  problems: Problems;
  problemsId: string;
}) {
  const at = (field: string) => problems.fields[field];
  const { api } = useSession();
  const folders = useLoad(
    () => unwrap(api.GET('/api/folders', { params: { query: { client_id: clientId, limit: 100 } } })),
    [api, clientId],
  );
  const list = folders.data?.data ?? [];
  const nameOf = (id: string) => list.find((f) => f.id === id)?.name ?? id;
  const update = (key: number, changes: Partial<PoolDraft>) =>
    onChange(pools.map((p) => (p.key === key ? { ...p, ...changes } : p)));
  const add = () =>
    onChange([...pools, { key: nextPoolKey++, folder_id: list[0]?.id ?? '', difficulty: '', draw: '1' }]);
  return (
    <section aria-labelledby="pools-heading">
      <h3 id="pools-heading" aria-describedby={at('pools') ? problemsId : undefined}>
        Random draws ({pools.length})
      </h3>
      <ProblemText id={problemsId} messages={at('pools')} />
      <p className="note">
        Each attempt draws its own questions from every pool, preferring those the student has not seen before.
        Publishing freezes the pools’ questions.
      </p>
      <ErrorMessage error={folders.error} />
      {pools.length === 0 && <p>No random draw{editable ? ': add one to draw questions from a folder.' : '.'}</p>}
      {pools.map((pool, i) => (
        <fieldset
          key={pool.key}
          disabled={!editable}
          className="row"
          style={{ marginBottom: '.6rem' }}
          aria-describedby={at(`pools.${i}`) ? `${problemsId}-${i}` : undefined}
        >
          <legend>Pool {i + 1}</legend>
          <ProblemText id={`${problemsId}-${i}`} messages={at(`pools.${i}`)} />
          <CheckedField label="Folder" problems={at(`pools.${i}.folder_id`)}>
            <select required value={pool.folder_id} onChange={(e) => update(pool.key, { folder_id: e.target.value })}>
              <option value="" disabled>
                Choose a folder…
              </option>
              {!list.some((f) => f.id === pool.folder_id) && pool.folder_id && (
                <option value={pool.folder_id}>{nameOf(pool.folder_id)}</option>
              )}
              {list.map((f) => (
                <option key={f.id} value={f.id}>
                  {f.name}
                </option>
              ))}
            </select>
          </CheckedField>
          <CheckedField label="Difficulty" problems={at(`pools.${i}.difficulty`)}>
            <select
              value={pool.difficulty}
              onChange={(e) => update(pool.key, { difficulty: e.target.value as PoolDraft['difficulty'] })}
            >
              <option value="">Any</option>
              {DIFFICULTIES.map((d) => (
                <option key={d} value={d}>
                  {d[0].toUpperCase() + d.slice(1)}
                </option>
              ))}
            </select>
          </CheckedField>
          <CheckedField label="Questions drawn" problems={at(`pools.${i}.draw`)}>
            <input
              type="number"
              required
              min="1"
              max="500"
              value={pool.draw}
              onChange={(e) => update(pool.key, { draw: e.target.value })}
            />
          </CheckedField>
          {editable && (
            <button
              type="button"
              className="danger"
              onClick={() => onChange(pools.filter((p) => p.key !== pool.key))}
              aria-label={`Remove pool ${i + 1}`}
            >
              Remove
            </button>
          )}
        </fieldset>
      ))}
      {editable && (
        <p>
          <button type="button" className="secondary" onClick={add} disabled={folders.loading && !folders.data}>
            Add a random draw
          </button>
          {folders.data && list.length === 0 ? (
            <small> The organization has no folder yet: pools draw from a folder’s questions.</small>
          ) : null}
        </p>
      )}
    </section>
  );
}
