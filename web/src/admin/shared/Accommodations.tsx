import { useEffect, useRef, useState } from 'react';
import { unwrap } from '../../api';
import { useSession } from '../../session';
import { ErrorMessage, Field, formatTime, useAction, useLoad } from '../../ui';
import { StudentCombobox } from '../StudentCombobox';

/**
 * A student's standing accommodation: the one picked here by name, or `student` when the page has chosen it.
 * With `focusFirst`, its first field takes the focus once the student's values are in (it is disabled until
 * then); `onSaved` hears of each save.
 */
export function Accommodations({
  clientId,
  student,
  focusFirst = false,
  onSaved,
}: {
  clientId: string;
  student?: { uid: string; name: string };
  focusFirst?: boolean;
  onSaved?: () => void;
}) {
  const { api } = useSession();
  const first = useRef<HTMLInputElement>(null);
  const focused = useRef(false);
  const [picked, setUid] = useState('');
  const uid = student?.uid ?? picked;
  const [percent, setPercent] = useState('0');
  const [minutes, setMinutes] = useState('0');
  const [saved, setSaved] = useState('');
  const current = useLoad(
    () =>
      uid
        ? unwrap(api.GET('/api/users/{uid}/accommodations', { params: { path: { uid } } }))
        : Promise.resolve(undefined),
    [api, uid],
  );
  useEffect(() => {
    if (!current.data) return;
    setPercent(String(current.data.extra_time_percent));
    setMinutes(String(current.data.extra_minutes));
  }, [current.data]);
  const action = useAction();
  // The chosen student's current values are on their way: typing now would be overwritten by them.
  const reading = Boolean(uid) && current.loading;
  useEffect(() => {
    if (!focusFirst || focused.current || reading || (!current.data && !current.error)) return;
    focused.current = true;
    first.current?.focus();
  }, [focusFirst, reading, current.data, current.error]);
  const save = () =>
    action.run(async () => {
      setSaved('');
      await unwrap(
        api.PUT('/api/users/{uid}/accommodations', {
          params: { path: { uid } },
          body: { extra_time_percent: Number(percent), extra_minutes: Number(minutes) },
        }),
      );
      setSaved('Accommodation saved.');
      current.reload();
      onSaved?.();
    });
  return (
    <section className="card" aria-labelledby="accommodations-heading">
      <h2 id="accommodations-heading">{student ? `Accommodation of ${student.name}` : 'Accommodations'}</h2>
      <p>
        <small>Standing extra time for a student, on every test of the organization.</small>
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <div className="row">
          {!student && (
            <StudentCombobox
              label="Student"
              clientId={clientId}
              onChange={(v) => {
                setUid(v);
                setSaved('');
              }}
            />
          )}
          <Field label="Extra time (%)">
            <input
              ref={first}
              type="number"
              min="0"
              max="400"
              required
              disabled={reading}
              value={percent}
              onChange={(e) => setPercent(e.target.value)}
            />
          </Field>
          <Field label="Extra minutes">
            <input
              type="number"
              min="0"
              max="1440"
              required
              disabled={reading}
              value={minutes}
              onChange={(e) => setMinutes(e.target.value)}
            />
          </Field>
          <button type="submit" disabled={!uid || reading || action.busy}>
            Save accommodation
          </button>
        </div>
      </form>
      {current.data?.updated_at ? (
        <p>
          <small>Last set {formatTime(current.data.updated_at)}.</small>
        </p>
      ) : null}
      {saved && <p role="status">{saved}</p>}
      <ErrorMessage error={action.error ?? current.error} />
    </section>
  );
}
