import { useEffect, useRef, useState } from 'react';
import type { Api } from '../../api';
import { useSession } from '../../session';
import { ErrorMessage, Field, Loading, plural, ScrollTable, useAction, useLoad } from '../../ui';
import { InvitationsAction } from '../classes/ClassInvitations';
import { allClasses, classLabel, orgQuery } from '../classes/classApi';
import { inviteStudents } from '../../invitationApi';
import { countOf, RosterImportForm, type RosterTarget } from '../classes/RosterImport';
import { Accommodations, CopyValue, Pager } from '../shared';
import { NeedsOrg } from '../org';
import { personLabel } from '../StudentCombobox';
import {
  createStudent,
  findStudents,
  importStudents,
  listStudents,
  newInvitation,
  setDisabled,
  type User,
} from './usersApi';

const PAGE_SIZE = 20;
/** A search answers one page of at most this many (the API's bound with q). */
const SEARCH_LIMIT = 50;
/** Searched this long after the last key. */
const PAUSE_MS = 250;

/** The organization's students: added one by one or from a roster, found, deactivated, their accommodations. */
export function UsersPage() {
  return (
    <>
      <h1>Users</h1>
      <p className="note">
        The organization's students. A student added without a password gets an invitation link: send it to them, and
        they choose their password there.
      </p>
      <NeedsOrg>{(clientId) => <Students key={clientId} clientId={clientId} />}</NeedsOrg>
    </>
  );
}

function Students({ clientId }: { clientId: string }) {
  const { api, me } = useSession();
  const superAdmin = me?.role === 'super_admin';
  const [page, setPage] = useState(1);
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<User | null>(null);
  // The button that opened the accommodation's dialog: the focus goes back to it when the dialog closes.
  const opener = useRef<HTMLElement | null>(null);
  // The search waits for a pause in typing; a blank one is the paged list.
  useEffect(() => {
    const timer = setTimeout(() => setQuery(text.trim()), PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const students = useLoad(
    () =>
      query
        ? findStudents(api, clientId, superAdmin, query, SEARCH_LIMIT)
        : listStudents(api, clientId, superAdmin, page, PAGE_SIZE),
    [api, clientId, superAdmin, query, page],
  );
  // Every class of the organization (a few pages at most), to name each student's classes.
  const classes = useLoad(() => allClasses(api, orgQuery(clientId, superAdmin)), [api, clientId, superAdmin]);
  const classNames = classes.data ? new Map(classes.data.map((c) => [c.id, classLabel(c)])) : undefined;
  const rows = students.data?.data ?? [];
  const changed = (user?: User) => {
    students.reload();
    if (user && chosen?.uid === user.uid) setChosen(user);
  };

  return (
    <>
      <AddStudent clientId={clientId} superAdmin={superAdmin} onAdded={() => changed()} />
      <RosterImportForm target={organizationRoster(api, clientId, superAdmin)} onImported={() => changed()} />
      <section className="card" aria-labelledby="students-heading">
        <h2 id="students-heading">Students</h2>
        <Field label="Find by name or email" hint="The start of a name or of an email, case and accents aside">
          <input type="search" value={text} maxLength={100} onChange={(e) => setText(e.target.value)} />
        </Field>
        <ErrorMessage error={students.error ?? classes.error} />
        {!students.data && students.loading ? (
          <Loading what="Loading the students" />
        ) : (
          <>
            <p role="status" data-testid="students-count">
              {query
                ? rows.length === 0
                  ? `No student's name or email starts with “${query}”.`
                  : `${plural(rows.length, 'student')} found${rows.length === SEARCH_LIMIT ? ' (the first ones: type more)' : ''}.`
                : plural(students.data?.pagination.total ?? 0, 'student')}
            </p>
            <InvitationsAction
              issue={(client) =>
                inviteStudents(client, {
                  uids: rows.filter((u) => u.can_sign_in === false).map((u) => u.uid),
                  only_cannot_sign_in: true,
                  ...(superAdmin && clientId ? { client_id: clientId } : {}),
                })
              }
              group="—"
              cannotSignIn={rows.filter((u) => u.can_sign_in === false).length}
            />
            <ScrollTable label="Students" className="stacked">
              <caption className="sr-only">Students of the organization</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Classes</th>
                  <th scope="col">Extra time</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {!query && rows.length === 0 && (
                  <tr>
                    <td colSpan={6}>No student yet.</td>
                  </tr>
                )}
                {rows.map((u) => (
                  <StudentRow
                    key={u.uid}
                    user={u}
                    classNames={classNames}
                    onChanged={changed}
                    onChoose={(button) => {
                      opener.current = button;
                      setChosen(u);
                    }}
                  />
                ))}
              </tbody>
            </ScrollTable>
            {!query && <Pager pagination={students.data?.pagination} page={page} onPage={setPage} what="students" />}
          </>
        )}
      </section>
      {chosen && (
        <AccommodationDialog
          key={chosen.uid}
          clientId={clientId}
          student={{ uid: chosen.uid, name: chosen.display_name ?? chosen.email ?? chosen.uid }}
          onSaved={() => students.reload()}
          onClose={() => {
            setChosen(null);
            opener.current?.focus();
          }}
        />
      )}
    </>
  );
}

/**
 * A student's accommodation in a modal <dialog>, opened over the row's button rather than below the
 * whole table (off-screen on a long list): the focus moves into it, to its first field once the
 * student's values are in; Escape or Close shuts it, and the page puts the focus back on the button
 * that opened it. A save reloads the list, whose Extra time column says it.
 */
function AccommodationDialog({
  clientId,
  student,
  onSaved,
  onClose,
}: {
  clientId: string;
  student: { uid: string; name: string };
  onSaved: () => void;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    // Its fields are disabled while the student's values are read: the Close button holds the focus until then.
    close.current?.focus();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="confirm accommodation-dialog"
      aria-label={`Accommodation of ${student.name}`}
      onClose={onClose}
    >
      <Accommodations clientId={clientId} student={student} focusFirst onSaved={onSaved} />
      <form method="dialog" className="row">
        <button ref={close} type="submit" className="secondary">
          Close
        </button>
      </form>
    </dialog>
  );
}

/** A student's extra time as the list says it: "+50%", "+10 min", both, or "—" for none. */
function extraTimeText(accommodation: User['accommodation']): string {
  const parts = [
    accommodation?.extra_time_percent ? `+${accommodation.extra_time_percent}%` : '',
    accommodation?.extra_minutes ? `+${accommodation.extra_minutes} min` : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : '—';
}

/**
 * A student's classes by name, as the organization's class list names them (while it is read: "…").
 * An id it does not list is a class being deleted: it is left out.
 */
function classesText(classIds: readonly string[] | undefined, names: Map<string, string> | undefined): string {
  if (!classIds || classIds.length === 0) return '—';
  if (!names) return '…';
  const known = classIds.flatMap((id) => names.get(id) ?? []).sort((a, b) => a.localeCompare(b));
  return known.length > 0 ? known.join(', ') : '—';
}

function StudentRow({
  user,
  classNames,
  onChanged,
  onChoose,
}: {
  user: User;
  classNames: Map<string, string> | undefined;
  onChanged: (u: User) => void;
  onChoose: (button: HTMLElement) => void;
}) {
  const { api } = useSession();
  const action = useAction();
  const [link, setLink] = useState('');
  const who = user.display_name ?? user.email ?? user.uid;
  const toggle = () => {
    if (!user.disabled && !window.confirm(`Deactivate ${who}? They can no longer sign in until reactivated.`)) return;
    void action.run(async () => onChanged(await setDisabled(api, user.uid, !user.disabled)));
  };
  const invite = () =>
    action.run(async () => {
      setLink((await newInvitation(api, user.uid)).invitation_link);
    });
  return (
    <tr data-uid={user.uid}>
      <td data-label="Name">
        {user.display_name ?? '—'}
        <ErrorMessage error={action.error} />
        {link && (
          <p>
            <CopyValue value={link} label={`the invitation link of ${who}`} />
          </p>
        )}
      </td>
      <td data-label="Email">{user.email ?? '—'}</td>
      <td data-label="Classes" data-testid="classes">
        {classesText(user.class_ids, classNames)}
      </td>
      <td data-label="Extra time" data-testid="extra-time">
        {extraTimeText(user.accommodation)}
      </td>
      <td data-label="Status">
        <span className={`badge badge-${user.disabled ? 'error' : 'ok'}`}>
          {user.disabled ? 'deactivated' : 'active'}
        </span>
      </td>
      <td>
        <div className="row">
          <button type="button" className="secondary" onClick={(e) => onChoose(e.currentTarget)}>
            Accommodation<span className="sr-only"> of {personLabel(user)}</span>
          </button>
          <button
            type="button"
            className="secondary"
            disabled={action.busy || user.disabled}
            onClick={() => void invite()}
          >
            New invitation link<span className="sr-only"> for {personLabel(user)}</span>
          </button>
          <button
            type="button"
            className={user.disabled ? 'secondary' : 'danger'}
            disabled={action.busy}
            onClick={toggle}
          >
            {user.disabled ? 'Reactivate' : 'Deactivate'}
            <span className="sr-only"> {personLabel(user)}</span>
          </button>
        </div>
      </td>
    </tr>
  );
}

type SignIn = 'invitation' | 'password';

function AddStudent({ clientId, superAdmin, onAdded }: { clientId: string; superAdmin: boolean; onAdded: () => void }) {
  const { api } = useSession();
  const action = useAction();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [signIn, setSignIn] = useState<SignIn>('invitation');
  const [password, setPassword] = useState('');
  const [added, setAdded] = useState<{ who: string; link?: string } | null>(null);
  const add = () =>
    action.run(async () => {
      setAdded(null);
      const made = await createStudent(api, clientId, superAdmin, {
        email: email.trim(),
        display_name: name.trim(),
        ...(signIn === 'password' ? { password } : {}),
      });
      setAdded({ who: personLabel(made), link: made.invitation_link });
      setEmail('');
      setName('');
      setPassword('');
      onAdded();
    });
  return (
    <form
      className="card"
      aria-label="Add a student"
      onSubmit={(e) => {
        e.preventDefault();
        void add();
      }}
    >
      <h2>Add a student</h2>
      <div className="row">
        <Field label="Email">
          <input type="email" required maxLength={254} value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Field label="Name">
          <input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
      </div>
      <fieldset className="modes">
        <legend>How they sign in the first time</legend>
        <label className="option">
          <input
            type="radio"
            name="sign-in"
            checked={signIn === 'invitation'}
            onChange={() => setSignIn('invitation')}
          />{' '}
          An invitation link they choose a password with (valid a week, or the days your organization set; used once)
        </label>
        <label className="option">
          <input type="radio" name="sign-in" checked={signIn === 'password'} onChange={() => setSignIn('password')} /> A
          password I set and give them
        </label>
      </fieldset>
      {signIn === 'password' && (
        <Field label="Password" hint="8 to 128 characters">
          <input
            type="text"
            autoComplete="new-password"
            required
            minLength={8}
            maxLength={128}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Field>
      )}
      <button type="submit" disabled={action.busy || !email.trim() || !name.trim()}>
        Add student
      </button>
      <ErrorMessage error={action.error} />
      {added && (
        <div role="status" data-testid="student-added">
          <p>Student {added.who} added.</p>
          {added.link ? (
            <p>
              Send them this invitation link: <CopyValue value={added.link} label="the invitation link" />
            </p>
          ) : null}
        </div>
      )}
    </form>
  );
}

/** The organization's roster import: the class roster's form, sent to POST /api/users/import. */
function organizationRoster(api: Api, clientId: string, superAdmin: boolean): RosterTarget {
  return {
    id: 'students-roster',
    heading: 'Import students',
    note: (
      <>
        A CSV file with a header row <code>email,name</code>, and optionally <code>password</code>, UTF-8. Students who
        do not exist yet are created: with the row's password, or with an invitation link when it is blank. Students
        already there are left as they are.
      </>
    ),
    statusLabel: { created: 'new student', added: 'added', already_member: 'already a student', error: 'error' },
    summary: (rows) =>
      `${plural(countOf(rows, 'created'), 'new student')}, ${countOf(rows, 'already_member')} already there, ${countOf(rows, 'error')} with errors`,
    send: (file, opts) => importStudents(api, clientId, superAdmin, file, opts),
  };
}
