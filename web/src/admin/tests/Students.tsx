import { useState } from 'react';
import { type Schemas, unwrap } from '../../api';
import { useSession } from '../../session';
import { ErrorMessage, Loading, ScrollTable, useAction, useLoad } from '../../ui';
import { personLabel, StudentCombobox } from '../StudentCombobox';
import { personName, personWithEmail } from '../people';
import { Accommodations, OverrideCells, OverrideColumns, OverrideFields, useOverrideInputs } from '../shared';

type User = Schemas['User'];
type Override = Schemas['Override'];
/** The reply's name first; a student of the first page of students, else a short id. */
const userName = (u: User | undefined, o: Override) =>
  o.student_name || o.student_email
    ? personWithEmail({ name: o.student_name, email: o.student_email, uid: o.student_id })
    : u
      ? personLabel(u)
      : personName({ uid: o.student_id });

/**
 * Per-student overrides of this test and standing accommodations of the organization's students.
 * A student is picked by name (a search); the first page of students only names the overrides listed.
 */
export function Students({ test }: { test: Schemas['Test'] }) {
  const { api } = useSession();
  const students = useLoad(
    () =>
      unwrap(api.GET('/api/users', { params: { query: { client_id: test.client_id, role: 'student', limit: 100 } } })),
    [api, test.client_id],
  );
  const list = students.data?.data ?? [];
  return (
    <>
      <ErrorMessage error={students.error} />
      <Overrides testId={test.id} clientId={test.client_id} students={list} />
      <Accommodations clientId={test.client_id} />
    </>
  );
}

function Overrides({ testId, clientId, students }: { testId: string; clientId: string; students: User[] }) {
  const { api } = useSession();
  const overrides = useLoad(
    () => unwrap(api.GET('/api/tests/{testId}/overrides', { params: { path: { testId }, query: { limit: 100 } } })),
    [api, testId],
  );
  const action = useAction();
  const [studentId, setStudentId] = useState('');
  const form = useOverrideInputs();
  const byId = new Map(students.map((s) => [s.uid, s]));

  const put = () =>
    action.run(async () => {
      await unwrap(
        api.PUT('/api/tests/{testId}/overrides/{studentId}', {
          params: { path: { testId, studentId } },
          body: form.body(),
        }),
      );
      overrides.reload();
    });
  const remove = (uid: string) =>
    action.run(async () => {
      await unwrap(
        api.DELETE('/api/tests/{testId}/overrides/{studentId}', { params: { path: { testId, studentId: uid } } }),
      );
      overrides.reload();
    });

  return (
    <section className="card" aria-labelledby="overrides-heading">
      <h2 id="overrides-heading">Overrides per student</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void put();
        }}
      >
        <div className="row">
          <StudentCombobox label="Student to override" clientId={clientId} onChange={setStudentId} />
          <OverrideFields who="Their" form={form} />
          <button type="submit" disabled={!studentId || action.busy}>
            Set override
          </button>
        </div>
        <p>
          <small>Empty fields keep the test's own value.</small>
        </p>
      </form>
      <ErrorMessage error={action.error ?? overrides.error} />
      {overrides.loading && !overrides.data ? <Loading what="Loading the overrides" /> : null}
      {overrides.data && overrides.data.data.length === 0 ? <p>No override.</p> : null}
      {overrides.data && overrides.data.data.length > 0 && (
        <ScrollTable label="Student overrides set">
          <thead>
            <tr>
              <th scope="col">Student</th>
              <OverrideColumns />
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {overrides.data.data.map((o) => (
              <tr key={o.student_id}>
                <td>{userName(byId.get(o.student_id), o)}</td>
                <OverrideCells override={o} />
                <td>
                  <button
                    type="button"
                    className="danger"
                    onClick={() => void remove(o.student_id)}
                    aria-label={`Remove the override of ${userName(byId.get(o.student_id), o)}`}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
    </section>
  );
}
