import { useState } from 'react';
import { type Schemas, unwrap } from '../../api';
import { useSession } from '../../session';
import { noProblems, problemsFrom, type FieldLabels, type Problems } from '../../fieldErrors';
import { CheckedField, formProblems, FormSummary } from '../../FormProblems';
import { ErrorMessage, Field, plural, useAction } from '../../ui';
import { Audience, ClassOverrides, useClasses } from './ClassAccess';
import { fromLocalInput, toLocalInput } from '../shared';

type Test = Schemas['Test'];

/** Whether an input's value names another instant than the stored one, as the input shows it (to the second). */
const moved = (value: string, stored: string | null) => fromLocalInput(value) !== fromLocalInput(toLocalInput(stored));

/** The sitting form's fields by body path, with their labels. */
const LABELS: FieldLabels = {
  opens_at: 'Opens at',
  closes_at: 'Closes at',
  review_opens_at: 'Review opens at',
  attempt_cooldown_minutes: 'Cooldown between attempts (minutes)',
  access_code: 'New access code',
};

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
  const [local, setLocal] = useState<Problems>(noProblems);
  const problems = formProblems(local, action.error, LABELS);
  const at = (field: keyof typeof LABELS) => problems.fields[field];

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
    // The window as it will stand (both inputs show it): closing before opening is said at once.
    const opens = fromLocalInput(opensAt);
    const closes = fromLocalInput(closesAt);
    const found = problemsFrom({
      closes_at:
        opens !== null &&
        closes !== null &&
        Date.parse(closes) <= Date.parse(opens) &&
        'Choose a closing time after the opening time (“Opens at”), or empty it to never close.',
    });
    setLocal(found);
    if (Object.keys(found.fields).length > 0) {
      action.clear();
      setSaved('');
      return;
    }
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
          <CheckedField label="Opens at" hint="Empty: open now" problems={at('opens_at')}>
            <input type="datetime-local" step="1" value={opensAt} onChange={(e) => setOpensAt(e.target.value)} />
          </CheckedField>
          <CheckedField label="Closes at" hint="Empty: never closes" problems={at('closes_at')}>
            <input type="datetime-local" step="1" value={closesAt} onChange={(e) => setClosesAt(e.target.value)} />
          </CheckedField>
          <CheckedField label="Review opens at" hint="Empty: on submission" problems={at('review_opens_at')}>
            <input
              type="datetime-local"
              step="1"
              value={reviewOpensAt}
              onChange={(e) => setReviewOpensAt(e.target.value)}
            />
          </CheckedField>
        </div>
        <div className="row">
          <CheckedField label="Cooldown between attempts (minutes)" problems={at('attempt_cooldown_minutes')}>
            <input type="number" min="0" max="10080" value={cooldown} onChange={(e) => setCooldown(e.target.value)} />
          </CheckedField>
          <CheckedField
            label={test.access_code_required ? 'New access code' : 'Access code'}
            problems={at('access_code')}
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
          </CheckedField>
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
      <FormSummary error={action.error} problems={problems} labels={LABELS} />
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
          {plural(done, 'attempt')} in progress received {plural(Number(minutes), 'more minute', 'more minutes')}.
        </p>
      )}
      <ErrorMessage error={action.error} />
    </form>
  );
}
