import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError, unwrap, type Schemas } from '../../api/client';
import { useSession } from '../../session';
import { ErrorMessage, formatTime, Loading, useAction, useLoad } from '../../ui';
import { ExportControl } from '../questions/ExportControl';
import { ShareCodes } from './ShareCodes';
import { SittingSettings } from './Sitting';
import { Students } from './Students';
import { TestContent } from './TestContent';

type Test = Schemas['Test'];

/** Test */
export function TestPage() {
  const { testId = '' } = useParams();
  const { api } = useSession();
  // Administrators get the admin shape (Test); StudentTest is the takers'.
  const loaded = useLoad(
    async () => (await unwrap(api.GET('/api/tests/{testId}', { params: { path: { testId } } }))) as Test,
    [api, testId],
  );
  const [test, setTest] = useState<Test | null>(null);
  useEffect(() => {
    if (loaded.data) setTest(loaded.data);
  }, [loaded.data]);
  const action = useAction();
  const navigate = useNavigate();

  if (loaded.error)
    return (
      <>
        <h1>Test</h1>
        <ErrorMessage error={loaded.error} />
      </>
    );
  if (!test)
    return (
      <>
        <h1>Test</h1>
        <Loading what="Loading the test" />
      </>
    );

  const move = (to: 'archive' | 'restore') =>
    action.run(async () => {
      const path = { params: { path: { testId: test.id } } };
      const updated =
        to === 'archive'
          ? await unwrap(api.POST('/api/tests/{testId}/archive', path))
          : await unwrap(api.POST('/api/tests/{testId}/restore', path));
      setTest(updated);
    });
  const remove = () =>
    action.run(async () => {
      if (!confirm(`Delete the draft test "${test.test_name}"? This cannot be undone.`)) return;
      try {
        await unwrap(api.DELETE('/api/tests/{testId}', { params: { path: { testId: test.id } } }));
      } catch (err) {
        // A draft restored from an archive may have attempts, which keep it.
        if (err instanceof ApiError && err.status === 409)
          throw new Error(
            `"${test.test_name}" has attempts, so it cannot be deleted: archive it instead (its results stay readable).`,
            { cause: err },
          );
        throw err;
      }
      navigate('/admin/tests', { state: { deleted: test.test_name } });
    });
  const base = `/admin/tests/${encodeURIComponent(test.id)}`;

  return (
    <>
      <p>
        <Link to="/admin/tests">All tests</Link>
      </p>
      <h1>{test.test_name}</h1>
      <p>
        Status: <strong data-testid="test-status">{test.status}</strong>
        {test.version != null ? ` · version ${test.version}, published ${formatTime(test.published_at)}` : ''} ·{' '}
        <span data-testid="test-question-count">{test.question_count}</span> questions per attempt
        {test.pools.length > 0
          ? ` (${test.question_ids.length} fixed, ${test.pools.length} random ${test.pools.length === 1 ? 'draw' : 'draws'})`
          : ''}
      </p>
      <nav aria-label="This test" className="row">
        <Link to={`${base}/live`}>Live sitting</Link>
        <Link to={`${base}/analytics`}>Analytics</Link>
        <Link to={`${base}/grading`}>Grade essays</Link>
      </nav>
      <div className="row moves">
        {/* Publish is in the content form: it saves unsaved changes first. */}
        {test.status === 'draft' && (
          <button type="button" className="danger" disabled={action.busy} onClick={() => void remove()}>
            Delete draft
          </button>
        )}
        {test.status !== 'archived' && (
          <button type="button" className="secondary" disabled={action.busy} onClick={() => void move('archive')}>
            Archive
          </button>
        )}
        {test.status === 'archived' && (
          <button type="button" className="secondary" disabled={action.busy} onClick={() => void move('restore')}>
            Restore to draft
          </button>
        )}
      </div>
      <ErrorMessage error={action.error} />
      <ExportControl path={`/api/tests/${encodeURIComponent(test.id)}/export`} baseName="test" />
      {/* Keyed by status: a move reloads the content form from the test as it now is. */}
      <TestContent key={`content-${test.status}`} test={test} onSaved={setTest} />
      <ShareCodes key={`codes-${test.status}`} test={test} />
      <SittingSettings test={test} onSaved={setTest} />
      <Students test={test} />
    </>
  );
}
