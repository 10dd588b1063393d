import { useState } from 'react';
import { Link } from 'react-router';
import type { Schemas } from '../../api';
import { useSession } from '../../session';
import { ErrorMessage, Field, Loading, ScrollTable, useAction, useLoad } from '../../ui';
import {
  allClasses,
  classLabel,
  deleteClassOverride,
  listClassOverrides,
  orgQuery,
  putClassOverride,
  setAssignment,
  type ClassInfo,
} from '../classes/classApi';
import { OverrideCells, OverrideColumns, OverrideFields, useOverrideInputs } from '../shared';

type Test = Schemas['Test'];

/** Every class of the test's organization, for the assignment and the class overrides. */
export function useClasses(clientId: string) {
  const { api, me } = useSession();
  return useLoad(() => allClasses(api, orgQuery(clientId, me?.role === 'super_admin')), [api, clientId]);
}

/** Who can take the test: the whole organization, or the members of the chosen classes. */
export function Audience({
  test,
  classes,
  onSaved,
}: {
  test: Test;
  classes: ClassInfo[] | undefined;
  onSaved: (test: Test) => void;
}) {
  const { api } = useSession();
  const action = useAction();
  const current = test.assigned_class_ids;
  const [chosen, setChosen] = useState<string[]>(current);
  const [onlyClasses, setOnlyClasses] = useState(current.length > 0);
  const [saved, setSaved] = useState('');
  const names = new Map((classes ?? []).map((c) => [c.id, classLabel(c)]));

  const save = () =>
    action.run(async () => {
      setSaved('');
      const ids = onlyClasses ? chosen : [];
      const updated = await setAssignment(api, test.id, ids);
      setSaved(
        ids.length === 0
          ? 'Open to the whole organization.'
          : `Assigned to ${ids.map((id) => names.get(id) ?? id).join(', ')}.`,
      );
      onSaved(updated);
    });
  const toggle = (id: string, on: boolean) => setChosen((c) => (on ? [...c, id] : c.filter((x) => x !== id)));

  return (
    <form
      aria-labelledby="audience-heading"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h3 id="audience-heading">Who can take it</h3>
      <p data-testid="audience">
        {current.length === 0
          ? 'Now: every student of the organization.'
          : `Now: the members of ${current.map((id) => names.get(id) ?? id).join(', ')}.`}
      </p>
      <fieldset className="modes">
        <legend>Students who see and start this test</legend>
        <label className="option">
          <input type="radio" name="audience" checked={!onlyClasses} onChange={() => setOnlyClasses(false)} /> The whole
          organization
        </label>
        <label className="option">
          <input type="radio" name="audience" checked={onlyClasses} onChange={() => setOnlyClasses(true)} /> Only the
          chosen classes
        </label>
      </fieldset>
      {onlyClasses && (
        <fieldset className="modes">
          <legend>Classes</legend>
          {classes === undefined && <Loading what="Loading the classes" />}
          {classes?.length === 0 && (
            <p>
              No class yet: <Link to="/admin/classes">create one</Link>.
            </p>
          )}
          {classes?.map((c) => (
            <label key={c.id} className="option">
              <input type="checkbox" checked={chosen.includes(c.id)} onChange={(e) => toggle(c.id, e.target.checked)} />{' '}
              {classLabel(c)} ({c.member_count} {c.member_count === 1 ? 'member' : 'members'})
            </label>
          ))}
        </fieldset>
      )}
      <button type="submit" disabled={action.busy || (onlyClasses && chosen.length === 0)}>
        Save who can take it
      </button>
      {saved && <p role="status">{saved}</p>}
      <ErrorMessage error={action.error} />
    </form>
  );
}

/** A window, timer or attempts for every member of a class; a student's own override still wins. */
export function ClassOverrides({ testId, classes }: { testId: string; classes: ClassInfo[] | undefined }) {
  const { api } = useSession();
  const overrides = useLoad(() => listClassOverrides(api, testId), [api, testId]);
  const action = useAction();
  const [classId, setClassId] = useState('');
  const form = useOverrideInputs();
  const names = new Map((classes ?? []).map((c) => [c.id, classLabel(c)]));

  const put = () =>
    action.run(async () => {
      await putClassOverride(api, testId, classId, form.body());
      overrides.reload();
    });
  const remove = (id: string) =>
    action.run(async () => {
      await deleteClassOverride(api, testId, id);
      overrides.reload();
    });

  const rows = overrides.data ?? [];
  return (
    <section aria-labelledby="class-overrides-heading">
      <h3 id="class-overrides-heading">Overrides per class</h3>
      <p>
        <small>
          A student’s own override wins; a student in several classes gets the most generous of theirs (earliest
          opening, latest closing, longest timer, most attempts). Empty fields keep the test’s own value.
        </small>
      </p>
      <form
        aria-label="Class override"
        onSubmit={(e) => {
          e.preventDefault();
          void put();
        }}
      >
        <div className="row">
          <Field label="Class to override">
            <select required value={classId} onChange={(e) => setClassId(e.target.value)}>
              <option value="">Choose…</option>
              {(classes ?? []).map((c) => (
                <option key={c.id} value={c.id}>
                  {classLabel(c)}
                </option>
              ))}
            </select>
          </Field>
          <OverrideFields who="Class" form={form} />
          <button type="submit" disabled={!classId || action.busy}>
            Set class override
          </button>
        </div>
      </form>
      <ErrorMessage error={action.error ?? overrides.error} />
      {overrides.loading && !overrides.data ? <Loading what="Loading the class overrides" /> : null}
      {overrides.data && rows.length === 0 ? <p>No class override.</p> : null}
      {rows.length > 0 && (
        <ScrollTable label="Class overrides set">
          <caption className="sr-only">Overrides per class</caption>
          <thead>
            <tr>
              <th scope="col">Class</th>
              <OverrideColumns />
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((o) => {
              const name = names.get(o.class_id) ?? o.class_id;
              return (
                <tr key={o.class_id}>
                  <td>{name}</td>
                  <OverrideCells override={o} />
                  <td>
                    <button
                      type="button"
                      className="danger"
                      disabled={action.busy}
                      onClick={() => void remove(o.class_id)}
                      aria-label={`Remove the override of ${name}`}
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
    </section>
  );
}
