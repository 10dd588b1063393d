import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { type Schemas, unwrap } from '../../api';
import { useSession } from '../../session';
import { noProblems, type FieldLabels } from '../../fieldErrors';
import { CheckedField, formProblems, FormSummary } from '../../FormProblems';
import { ErrorMessage, Field, formatTime, Loading, plural, ScrollTable, useAction, useLoad } from '../../ui';
import { NeedsOrg } from '../org';
import { Pager } from '../shared';

type Status = Schemas['Test']['status'];
const PAGE_SIZE = 20;

/** Tests */
export function TestsPage() {
  return (
    <>
      <h1>Tests</h1>
      <NeedsOrg>{(clientId) => <Tests key={clientId} clientId={clientId} />}</NeedsOrg>
    </>
  );
}

function Tests({ clientId }: { clientId: string }) {
  const { api } = useSession();
  const [status, setStatus] = useState<Status | ''>('');
  const [page, setPage] = useState(1);
  const tests = useLoad(
    () =>
      unwrap(
        api.GET('/api/tests', {
          params: { query: { client_id: clientId, page, limit: PAGE_SIZE, ...(status ? { status } : {}) } },
        }),
      ),
    [api, clientId, status, page],
  );
  // Administrators get the admin shape (TestPage); the student shape is for takers.
  const list = (tests.data?.data ?? []) as Schemas['Test'][];
  const pagination = tests.data?.pagination;
  // The test page sends its name here after deleting a draft.
  const deleted = (useLocation().state as { deleted?: string } | null)?.deleted;
  return (
    <>
      {deleted && (
        <p role="status" className="note">
          Test "{deleted}" deleted.
        </p>
      )}
      <CreateTest clientId={clientId} />
      <section aria-labelledby="tests-heading">
        <h2 id="tests-heading">Tests of the organization</h2>
        <Field label="Status">
          <select
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as Status | '');
              setPage(1);
            }}
          >
            <option value="">All</option>
            <option value="draft">Draft</option>
            <option value="published">Published</option>
            <option value="archived">Archived</option>
          </select>
        </Field>
        <ErrorMessage error={tests.error} />
        {tests.loading && !tests.data ? <Loading what="Loading the tests" /> : null}
        {tests.data && list.length === 0 ? <p>No test yet.</p> : null}
        {list.length > 0 && (
          <ScrollTable label="Tests of the organization">
            <thead>
              <tr>
                <th scope="col">Test</th>
                <th scope="col">Status</th>
                <th scope="col">Questions</th>
                <th scope="col">Timer</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {list.map((t) => (
                <tr key={t.id}>
                  <td>
                    <Link to={`/admin/tests/${encodeURIComponent(t.id)}`}>{t.test_name}</Link>
                  </td>
                  <td>{t.status}</td>
                  <td>{t.question_count}</td>
                  <td>{t.timer == null ? '—' : plural(t.timer, 'minute')}</td>
                  <td>{formatTime(t.updated_at)}</td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        )}
        {pagination && pagination.pages > 1 && (
          <Pager pagination={pagination} page={page} onPage={setPage} what="tests" />
        )}
      </section>
    </>
  );
}

/** The new-test form's fields by body path, with their labels. */
const CREATE_LABELS: FieldLabels = { test_name: 'Test name', timer: 'Timer (minutes)' };

function CreateTest({ clientId }: { clientId: string }) {
  const { api } = useSession();
  const navigate = useNavigate();
  const action = useAction();
  const [name, setName] = useState('');
  const [timer, setTimer] = useState('30');
  const [shuffle, setShuffle] = useState(false);
  const [allowReview, setAllowReview] = useState(false);
  const [negative, setNegative] = useState(false);
  const problems = formProblems(noProblems, action.error, CREATE_LABELS);
  const create = () =>
    action.run(async () => {
      const test = await unwrap(
        api.POST('/api/tests', {
          body: {
            client_id: clientId,
            test_name: name,
            timer: timer ? Number(timer) : null,
            shuffle: shuffle ? 1 : 0,
            allow_review: allowReview ? 1 : 0,
            negative_marking: negative ? 1 : 0,
            negative_mark_ratio: 0.25,
            question_ids: [],
            pools: [],
          },
        }),
      );
      navigate(`/admin/tests/${encodeURIComponent(test.id)}`);
    });
  return (
    <form
      className="card"
      aria-labelledby="new-test-heading"
      onSubmit={(e) => {
        e.preventDefault();
        void create();
      }}
    >
      <h2 id="new-test-heading">New test</h2>
      <div className="row">
        <CheckedField label="Test name" problems={problems.fields.test_name}>
          <input required value={name} onChange={(e) => setName(e.target.value)} />
        </CheckedField>
        <CheckedField label="Timer (minutes)" problems={problems.fields.timer}>
          <input type="number" min="1" max="1440" value={timer} onChange={(e) => setTimer(e.target.value)} />
        </CheckedField>
      </div>
      <label className="option">
        <input type="checkbox" checked={shuffle} onChange={(e) => setShuffle(e.target.checked)} /> Shuffle questions and
        options
      </label>
      <label className="option">
        <input type="checkbox" checked={allowReview} onChange={(e) => setAllowReview(e.target.checked)} /> Allow review
        after submission
      </label>
      <label className="option">
        <input type="checkbox" checked={negative} onChange={(e) => setNegative(e.target.checked)} /> Negative marking
      </label>
      <button type="submit" disabled={action.busy}>
        Create test
      </button>
      <FormSummary error={action.error} problems={problems} labels={CREATE_LABELS} not="created" />
    </form>
  );
}
