import { useState } from 'react';
import { unwrap, type Schemas } from '../../api/client';
import { useSession } from '../../session';
import { ErrorMessage, Field, useAction } from '../../ui';
import { Audience, ClassOverrides, useClasses } from './ClassAccess';
import { fromLocalInput, toLocalInput } from './time';

type Test = Schemas['Test'];

/** Whether an input's value names another instant than the stored one, as the input shows it (to the second). */
const moved = (value: string, stored: string | null) => fromLocalInput(value) !== fromLocalInput(toLocalInput(stored));

/** Delivery settings (PATCH, at any time) and extra time for everyone taking the test now. */
export function SittingSettings({ test, onSaved }: { test: Test; onSaved: (test: Test) => void }) {
  const { api } = useSession();
  const action = useAction();
  const [saved, setSaved] = useState('');
  const [opensAt, setOpensAt] = useState(toLocalInput(test.opens_at));
  const [closesAt, setClosesAt] = useState(toLocalInput(test.closes_at));
  const [reviewOpensAt, setReviewOpensAt] = useState(toLocalInput(test.review_opens_at));
  const [cooldown, setCooldown] = useState(String(test.attempt_cooldown_minutes));
  const [onSite, setOnSite] = useState(test.on_site_only === 1);
  const [accessCode, setAccessCode] = useState('');
  const classes = useClasses(test.client_id);

  const patch = (body: Schemas['PatchTest'], message: string) =>
    action.run(async () => {
      setSaved('');
      const updated = await unwrap(api.PATCH('/api/tests/{testId}', { params: { path: { testId: test.id } }, body }));
      setSaved(message);
      setAccessCode('');
      onSaved(updated);
    });
  // Only what the person changed is sent: an instant left alone keeps its stored value to the
  // millisecond (the input shows seconds at most), so saving never moves closes_at and sweeps.
  const save = () => {
    const body: Schemas['PatchTest'] = {};
    if (moved(opensAt, test.opens_at)) body.opens_at = fromLocalInput(opensAt);
    if (moved(closesAt, test.closes_at)) body.closes_at = fromLocalInput(closesAt);
    if (moved(reviewOpensAt, test.review_opens_at)) body.review_opens_at = fromLocalInput(reviewOpensAt);
    if (Number(cooldown || 0) !== test.attempt_cooldown_minutes) body.attempt_cooldown_minutes = Number(cooldown || 0);
    if ((onSite ? 1 : 0) !== test.on_site_only) body.on_site_only = onSite ? 1 : 0;
    if (accessCode) body.access_code = accessCode;
    if (Object.keys(body).length === 0) {
      action.clear();
      setSaved('Nothing changed: there is nothing to save.');
      return;
    }
    void patch(body, 'Sitting settings saved.');
  };

  return (
    <section className="card" aria-labelledby="sitting-heading">
      <h2 id="sitting-heading">Sitting settings</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <div className="row">
          <Field label="Opens at" hint="Empty: open now">
            <input type="datetime-local" step="1" value={opensAt} onChange={(e) => setOpensAt(e.target.value)} />
          </Field>
          <Field label="Closes at" hint="Empty: never closes">
            <input type="datetime-local" step="1" value={closesAt} onChange={(e) => setClosesAt(e.target.value)} />
          </Field>
          <Field label="Review opens at" hint="Empty: on submission">
            <input
              type="datetime-local"
              step="1"
              value={reviewOpensAt}
              onChange={(e) => setReviewOpensAt(e.target.value)}
            />
          </Field>
        </div>
        <div className="row">
          <Field label="Cooldown between attempts (minutes)">
            <input type="number" min="0" max="10080" value={cooldown} onChange={(e) => setCooldown(e.target.value)} />
          </Field>
          <Field
            label={test.access_code_required ? 'New access code' : 'Access code'}
            hint={
              test.access_code_required
                ? 'Type a new one to replace it. Takers may type it in any case'
                : 'None yet: takers start without one. They may type it in any case'
            }
          >
            <input
              autoComplete="off"
              minLength={4}
              maxLength={64}
              value={accessCode}
              onChange={(e) => setAccessCode(e.target.value)}
            />
          </Field>
        </div>
        <CurrentAccessCode test={test} />
        <label className="option">
          <input type="checkbox" checked={onSite} onChange={(e) => setOnSite(e.target.checked)} /> On site only (the
          organization's networks)
        </label>
        <div className="row">
          <button type="submit" disabled={action.busy}>
            Save sitting settings
          </button>
          {test.access_code_required && (
            <button
              type="button"
              className="secondary"
              disabled={action.busy}
              onClick={() => void patch({ access_code: null }, 'Access code cleared.')}
            >
              Clear the access code
            </button>
          )}
        </div>
      </form>
      {saved && <p role="status">{saved}</p>}
      <ErrorMessage error={action.error} />
      <ErrorMessage error={classes.error} />
      <Audience test={test} classes={classes.data} onSaved={onSaved} />
      <ClassOverrides testId={test.id} classes={classes.data} />
      <ExtendEveryone testId={test.id} />
    </section>
  );
}

/** The code the organization set, for the proctor to read out; never shown to takers (their replies do not carry it). */
function CurrentAccessCode({ test }: { test: Test }) {
  if (test.access_code)
    return (
      <p data-access-code>
        Access code: <strong className="access-code">{test.access_code}</strong>
      </p>
    );
  if (test.access_code_required)
    return (
      <p className="note" data-access-code>
        An access code is set, but it was saved before codes could be shown: it still works. Type it again (or a new
        one) to see it here.
      </p>
    );
  return <p data-access-code>No access code is set.</p>;
}

function ExtendEveryone({ testId }: { testId: string }) {
  const { api } = useSession();
  const action = useAction();
  const [minutes, setMinutes] = useState('5');
  const [done, setDone] = useState<number | null>(null);
  const extend = () =>
    action.run(async () => {
      setDone(null);
      const r = await unwrap(
        api.POST('/api/tests/{testId}/extend', { params: { path: { testId } }, body: { minutes: Number(minutes) } }),
      );
      setDone(r.extended);
    });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void extend();
      }}
    >
      <h3>Extra time for everyone</h3>
      <div className="row">
        <Field label="Extra minutes for every attempt in progress">
          <input
            type="number"
            min="1"
            max="1440"
            required
            value={minutes}
            onChange={(e) => setMinutes(e.target.value)}
          />
        </Field>
        <button type="submit" disabled={action.busy}>
          Extend everyone
        </button>
      </div>
      {done != null && (
        <p role="status">
          {done} attempts in progress received {minutes} more minutes.
        </p>
      )}
      <ErrorMessage error={action.error} />
    </form>
  );
}
