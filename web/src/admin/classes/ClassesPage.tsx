import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../api';
import { useSession } from '../../session';
import { ErrorMessage, Field, Loading, ScrollTable, useAction, useLoad } from '../../ui';
import { NeedsOrg } from '../org';
import { Pager } from '../shared';
import { createClass, deleteClass, listClasses, orgQuery, type ClassInfo } from './classApi';

const PAGE_SIZE = 20;

/** Classes */
export function ClassesPage() {
  return (
    <>
      <h1>Classes</h1>
      <p className="note">
        A test open to the whole organization is seen by every student; a test assigned to classes only by their
        members. Classes also carry their own window, timer and attempts on a test (its sitting settings).
      </p>
      <NeedsOrg>{(clientId) => <ClassList key={clientId} clientId={clientId} />}</NeedsOrg>
    </>
  );
}

function ClassList({ clientId }: { clientId: string }) {
  const { api, me } = useSession();
  const superAdmin = me?.role === 'super_admin';
  const [page, setPage] = useState(1);
  const classes = useLoad(
    () => listClasses(api, { ...orgQuery(clientId, superAdmin), page, limit: PAGE_SIZE }),
    [api, clientId, page],
  );
  const navigate = useNavigate();
  const create = useAction();
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const add = () =>
    create.run(async () => {
      const made = await createClass(api, {
        name: name.trim(),
        code: code.trim() || null,
        ...(superAdmin ? { client_id: clientId } : {}),
      });
      navigate(`/admin/classes/${encodeURIComponent(made.id)}`);
    });

  const rows = classes.data?.data ?? [];
  return (
    <>
      <form
        className="card"
        aria-label="New class"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <h2>New class</h2>
        <div className="row">
          <Field label="Class name">
            <input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Field label="Code" hint="Optional, e.g. 9C">
            <input maxLength={20} value={code} onChange={(e) => setCode(e.target.value)} />
          </Field>
          <button type="submit" disabled={create.busy || !name.trim()}>
            Create class
          </button>
        </div>
        <ErrorMessage error={create.error} />
      </form>

      <ErrorMessage error={classes.error} />
      {!classes.data && classes.loading ? (
        <Loading what="Loading the classes" />
      ) : (
        <ScrollTable label="Classes of the organization">
          <caption className="sr-only">Classes of the organization</caption>
          <thead>
            <tr>
              <th scope="col">Class</th>
              <th scope="col">Code</th>
              <th scope="col">Members</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={4}>No class yet.</td>
              </tr>
            )}
            {rows.map((c) => (
              <ClassRow key={c.id} cls={c} onDeleted={classes.reload} />
            ))}
          </tbody>
        </ScrollTable>
      )}
      <Pager pagination={classes.data?.pagination} page={page} onPage={setPage} what="classes" />
    </>
  );
}

function ClassRow({ cls, onDeleted }: { cls: ClassInfo; onDeleted: () => void }) {
  const { api } = useSession();
  const action = useAction();
  const remove = () => {
    if (!window.confirm(`Delete the class ${cls.name}? Its ${cls.member_count} members stay students.`)) return;
    void action.run(async () => {
      await deleteClass(api, cls.id);
      onDeleted();
    });
  };
  return (
    <tr>
      <td>
        <Link to={`/admin/classes/${encodeURIComponent(cls.id)}`}>{cls.name}</Link>
        <DeleteRefusal error={action.error} />
      </td>
      <td>{cls.code ?? '—'}</td>
      <td>{cls.member_count}</td>
      <td>
        <button type="button" className="danger" disabled={action.busy} onClick={remove}>
          Delete<span className="sr-only"> the class {cls.name}</span>
        </button>
      </td>
    </tr>
  );
}

/** A test named by a refused delete, and why it holds the class. */
interface HoldingTest {
  id: string;
  name: string;
  /** assigned_class_ids: the test is assigned to the class; class_overrides: it holds an override for it. */
  reason: 'assigned' | 'override';
}

/** The details of a class delete's 409: one a test (test_id, test_name), its path saying why. */
function testsNamedBy(error: ApiError): HoldingTest[] {
  return error.details.flatMap((d) => {
    if (typeof d.test_id !== 'string') return [];
    const name = typeof d.test_name === 'string' && d.test_name ? d.test_name : d.test_id;
    return [{ id: d.test_id, name, reason: d.path === 'class_overrides' ? 'override' : 'assigned' }];
  });
}

const REASON: Record<HoldingTest['reason'], string> = {
  assigned: 'assigned to it: change who can take the test',
  override: 'holds an override for it: remove the override',
};

/**
 * A class that a test is assigned to, or holds an override for, cannot be deleted (the test
 * would be left naming a class that is gone): the refusal names the tests, each linked to its
 * sitting settings where the assignment and the class overrides are changed.
 */
export function DeleteRefusal({ error }: { error: unknown }) {
  if (!(error instanceof ApiError) || error.status !== 409) return <ErrorMessage error={error} />;
  const tests = testsNamedBy(error);
  if (tests.length === 0) return <ErrorMessage error={error} />;
  const reasons = new Set(tests.map((t) => t.reason));
  const why =
    reasons.size === 2
      ? 'these tests are assigned to it or hold an override for it'
      : reasons.has('override')
        ? `${tests.length === 1 ? 'this test holds' : 'these tests hold'} an override for it`
        : `${tests.length === 1 ? 'this test is' : 'these tests are'} assigned to it`;
  return (
    <div role="alert" className="error">
      <p>The class cannot be deleted: {why}.</p>
      <ul>
        {tests.map((t) => (
          <li key={t.id} data-reason={t.reason}>
            <Link to={`/admin/tests/${encodeURIComponent(t.id)}`}>{t.name}</Link> ({REASON[t.reason]})
          </li>
        ))}
      </ul>
    </div>
  );
}
