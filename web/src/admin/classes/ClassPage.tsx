import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { type Schemas, unwrap } from '../../api';
import { useSession } from '../../session';
import { ErrorMessage, Field, formatTime, Loading, plural, ScrollTable, useAction, useLoad } from '../../ui';
import { useOrg } from '../org';
import { Pager } from '../shared';
import { addMember, deleteClass, getClass, listMembers, removeMember, updateClass, type ClassInfo } from './classApi';
import { DeleteRefusal } from './ClassesPage';
import { RosterImport } from './RosterImport';
import { ClassInvitations } from './ClassInvitations';

const MEMBERS_PAGE = 25;

const personOf = (p: { email: string | null; display_name: string | null; uid: string }) =>
  p.display_name ? `${p.display_name} (${p.email ?? p.uid})` : (p.email ?? p.uid);

/** One class: rename or delete it, its members, and its roster import. */
export function ClassPage() {
  const { classId = '' } = useParams();
  const { api } = useSession();
  const loaded = useLoad(() => getClass(api, classId), [api, classId]);
  // Raised by every change of the members: the count and the list are read again.
  const [changes, setChanges] = useState(0);
  const [cls, setCls] = useState<ClassInfo | null>(null);
  useEffect(() => {
    if (loaded.data) setCls(loaded.data);
  }, [loaded.data]);
  const { reload } = loaded;
  const changed = () => {
    setChanges((n) => n + 1);
    reload();
  };

  return (
    <>
      <p>
        <Link to="/admin/classes">All classes</Link>
      </p>
      <h1>{cls ? `Class ${cls.name}` : 'Class'}</h1>
      <ErrorMessage error={loaded.error} />
      {!cls && loaded.loading && <Loading what="Loading the class" />}
      {cls && (
        <>
          <p>
            Code: <strong>{cls.code ?? '—'}</strong> · <span data-testid="member-count">{cls.member_count}</span>{' '}
            {cls.member_count === 1 ? 'member' : 'members'}
          </p>
          <Rename key={cls.id} cls={cls} onSaved={setCls} />
          <Members cls={cls} changes={changes} onChanged={changed} />
          <RosterImport classId={cls.id} onImported={changed} />
        </>
      )}
    </>
  );
}

function Rename({ cls, onSaved }: { cls: ClassInfo; onSaved: (c: ClassInfo) => void }) {
  const { api } = useSession();
  const navigate = useNavigate();
  const action = useAction();
  const removal = useAction();
  const [name, setName] = useState(cls.name);
  const [code, setCode] = useState(cls.code ?? '');
  const [saved, setSaved] = useState('');
  const save = () =>
    action.run(async () => {
      setSaved('');
      const updated = await updateClass(api, cls.id, { name: name.trim(), code: code.trim() || null });
      onSaved(updated);
      setSaved('Class saved.');
    });
  const remove = () => {
    if (!window.confirm(`Delete the class ${cls.name}? Its members stay students of the organization.`)) return;
    void removal.run(async () => {
      await deleteClass(api, cls.id);
      navigate('/admin/classes');
    });
  };
  return (
    <section className="card" aria-labelledby="rename-heading">
      <h2 id="rename-heading">Name and code</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <div className="row">
          <Field label="Class name">
            <input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Field label="Code" hint="Optional, e.g. 9C">
            <input maxLength={20} value={code} onChange={(e) => setCode(e.target.value)} />
          </Field>
          <button type="submit" disabled={action.busy || !name.trim()}>
            Save class
          </button>
          <button type="button" className="danger" disabled={removal.busy} onClick={remove}>
            Delete class
          </button>
        </div>
      </form>
      {saved && <p role="status">{saved}</p>}
      <ErrorMessage error={action.error} />
      <DeleteRefusal error={removal.error} />
    </section>
  );
}

type User = Schemas['User'];

function Members({ cls, changes, onChanged }: { cls: ClassInfo; changes: number; onChanged: () => void }) {
  const { api, me } = useSession();
  const { clientId } = useOrg();
  const [page, setPage] = useState(1);
  const members = useLoad(() => listMembers(api, cls.id, { page, limit: MEMBERS_PAGE }), [api, cls.id, page, changes]);
  const students = useStudents(me?.role === 'super_admin' ? clientId : null);
  const [uid, setUid] = useState('');
  const [message, setMessage] = useState('');
  const action = useAction();

  const add = () =>
    action.run(async () => {
      setMessage('');
      const member = await addMember(api, cls.id, uid);
      setMessage(`Added ${personOf(member)}.`);
      setUid('');
      onChanged();
    });
  const remove = (member: Schemas['ClassMember']) =>
    action.run(async () => {
      setMessage('');
      await removeMember(api, cls.id, member.uid);
      setMessage(`Removed ${personOf(member)}.`);
      onChanged();
    });

  const rows = members.data?.data ?? [];
  const cannotSignIn = rows.filter((m) => m.can_sign_in === false).length;
  return (
    <section className="card" aria-labelledby="members-heading">
      <h2 id="members-heading">Members</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <div className="row">
          <Field label="Student to add">
            <select required value={uid} onChange={(e) => setUid(e.target.value)}>
              <option value="">Choose…</option>
              {students.list.map((s) => (
                <option key={s.uid} value={s.uid}>
                  {personOf(s)}
                </option>
              ))}
            </select>
          </Field>
          <button type="submit" disabled={!uid || action.busy}>
            Add to class
          </button>
          {students.more && (
            <button type="button" className="secondary" disabled={students.loading} onClick={students.loadMore}>
              More students
            </button>
          )}
        </div>
      </form>
      <ErrorMessage error={students.error} />
      <ErrorMessage error={action.error} />
      <p role="status" aria-live="polite">
        {message}
      </p>
      <p data-testid="cannot-sign-in-count">{plural(cannotSignIn, 'student')} on this page cannot sign in yet.</p>
      <ClassInvitations classId={cls.id} className={cls.name} cannotSignIn={cannotSignIn} />
      <ErrorMessage error={members.error} />
      {!members.data && members.loading ? (
        <Loading what="Loading the members" />
      ) : (
        <ScrollTable label="Class members">
          <caption className="sr-only">Members of {cls.name}</caption>
          <thead>
            <tr>
              <th scope="col">Student</th>
              <th scope="col">Email</th>
              <th scope="col">Added</th>
              <th scope="col">Sign-in</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={5}>No member yet.</td>
              </tr>
            )}
            {rows.map((m) => {
              const who = personOf(m);
              return (
                <tr key={m.uid}>
                  <td>{m.display_name || '—'}</td>
                  <td>{m.email}</td>
                  <td>{formatTime(m.added_at)}</td>
                  <td>{m.can_sign_in === false ? <strong>Cannot sign in yet</strong> : 'Can sign in'}</td>
                  <td>
                    <button
                      type="button"
                      className="danger"
                      disabled={action.busy}
                      onClick={() => void remove(m)}
                      aria-label={`Remove ${who} from the class`}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </ScrollTable>
      )}
      <Pager pagination={members.data?.pagination} page={page} onPage={setPage} what="members" />
    </section>
  );
}

/** The organization's students, a page of 100 at a time (an organization may have thousands). */
function useStudents(superAdminClientId: string | null) {
  const { api } = useSession();
  const [list, setList] = useState<User[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [more, setMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const load = async (after: string | null, reset: boolean) => {
    setLoading(true);
    setError(null);
    try {
      const page = await unwrap(
        api.GET('/api/users', {
          params: {
            query: {
              role: 'student',
              limit: 100,
              ...(superAdminClientId ? { client_id: superAdminClientId } : {}),
              ...(after ? { cursor: after } : {}),
            },
          },
        }),
      );
      setList((l) => (reset ? page.data : [...l, ...page.data]));
      setCursor(page.pagination.next_cursor);
      setMore(page.pagination.next_cursor !== null);
    } catch (err) {
      setError(err);
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => {
    void load(null, true);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, superAdminClientId]);
  return { list, more, loading, error, loadMore: () => void load(cursor, false) };
}
