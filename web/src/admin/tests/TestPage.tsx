import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError, type Schemas, unwrap } from '../../api';
import { useSession } from '../../session';
import { ErrorMessage, formatTime, Loading, useAction, useLoad } from '../../ui';
import { useConfirm } from '../../ConfirmDialog';
import { ExportControl } from '../questions/ExportControl';
import { BankChanges } from './BankChanges';
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
  const confirmation = useConfirm();

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
      if (
        to === 'archive' &&
        !(await confirmation.ask({
          title: `Archive "${test.test_name}"?`,
          body: (
            <p>
              Students can no longer start it, and attempts in progress take no more answers (they can still be
              submitted). Results stay readable. Restoring makes it a draft, hidden from students until it is published
              again.
            </p>
          ),
          confirm: 'Archive',
          danger: true,
        }))
      )
        return;
      const path = { params: { path: { testId: test.id } } };
      const updated =
        to === 'archive'
          ? await unwrap(api.POST('/api/tests/{testId}/archive', path))
          : await unwrap(api.POST('/api/tests/{testId}/restore', path));
      setTest(updated);
    });
  const remove = () =>
    action.run(async () => {
      const sure = await confirmation.ask({
        title: `Delete "${test.test_name}"?`,
        body: <p>The draft and its share codes go for good: this cannot be undone.</p>,
        confirm: 'Delete',
        danger: true,
      });
      if (!sure) return;
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
  const path = { params: { path: { testId: test.id } } };
  const pending = test.pending_edit;
  const openNewVersion = () =>
    action.run(async () => setTest(await unwrap(api.POST('/api/tests/{testId}/new-version', path))));
  const publishNewVersion = () =>
    action.run(async () => setTest(await unwrap(api.POST('/api/tests/{testId}/new-version/publish', path))));
  const discardNewVersion = () =>
    action.run(async () => {
      const sure = await confirmation.ask({
        title: `Discard version ${(test.version ?? 0) + 1}?`,
        body: <p>Its changes are lost. Version {test.version} stays live, as it is.</p>,
        confirm: 'Discard',
        danger: true,
      });
      if (!sure) return;
      await unwrap(api.DELETE('/api/tests/{testId}/new-version', path));
      setTest((await unwrap(api.GET('/api/tests/{testId}', path))) as Test);
    });
  // While a new version is edited, the content form shows and saves it; the live fields stay as they are.
  const contentView: Test = pending ? { ...test, ...pending } : test;
  const savePending = pending
    ? async (body: Schemas['EditNewVersion']) => unwrap(api.PUT('/api/tests/{testId}/new-version', { ...path, body }))
    : undefined;

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
        {test.status === 'published' && !pending && (
          <button type="button" disabled={action.busy} onClick={() => void openNewVersion()}>
            Edit as a new version
          </button>
        )}
      </div>
      {pending && (
        <section className="card" aria-labelledby="new-version-heading" data-testid="new-version">
          <h2 id="new-version-heading">Version {(test.version ?? 0) + 1} is being edited</h2>
          <p className="note">
            Opened {formatTime(pending.opened_at)}
            {test.status === 'published'
              ? `. Students keep getting version ${test.version} until you publish this one; attempts in progress keep their version.`
              : '. The test is archived: restoring it makes this edit the draft.'}
          </p>
          <div className="row">
            {test.status === 'published' && (
              <button type="button" disabled={action.busy} onClick={() => void publishNewVersion()}>
                Publish version {(test.version ?? 0) + 1}
              </button>
            )}
            <button type="button" className="danger" disabled={action.busy} onClick={() => void discardNewVersion()}>
              Discard the new version
            </button>
          </div>
        </section>
      )}
      <ErrorMessage error={action.error} />
      {confirmation.element}
      <BankChanges key={`changes-${test.version}`} test={test} />
      <ExportControl path={`/api/tests/${encodeURIComponent(test.id)}/export`} baseName="test" />
      {/* Keyed by status: a move reloads the content form from the test as it now is. */}
      <TestContent
        key={`content-${test.status}-${pending ? pending.opened_at : 'live'}`}
        test={contentView}
        onSaved={setTest}
        saveWith={savePending}
      />
      <ShareCodes key={`codes-${test.status}`} test={test} />
      <SittingSettings test={test} onSaved={setTest} />
      <Students test={test} />
    </>
  );
}
