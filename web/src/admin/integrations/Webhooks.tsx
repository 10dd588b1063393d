import { useState } from 'react';
import { useSession } from '../../session';
import { Field, formatTime, Loading, useAction, useLoad } from '../../ui';
import { Deliveries } from './Deliveries';
import { CopyValue } from '../shared';
import { fieldProblems, FieldProblems, FormError } from './formParts';
import {
  createWebhook,
  deleteWebhook,
  EVENT_LABELS,
  listWebhooks,
  rotateWebhookSecret,
  WEBHOOK_EVENTS,
  type Webhook,
  type WebhookEvent,
  type WebhookWithSecret,
} from './integrationsApi';

/** The service keeps at most this many endpoints per organization (a 409 past it). */
const MAX_ENDPOINTS = 20;
const FORM_FIELDS = ['url', 'events', 'description'];

/** A secret just made: shown once, as the service never shows it again. */
interface ShownSecret {
  endpoint: WebhookWithSecret;
  rotated: boolean;
}

/** Webhook endpoints of the organization: listed, created, deleted, their secret rotated, their deliveries. */
export function Webhooks({ clientId }: { clientId: string }) {
  const { api } = useSession();
  const endpoints = useLoad(() => listWebhooks(api, clientId), [api, clientId]);
  const [shown, setShown] = useState<ShownSecret | null>(null);
  const rows = endpoints.data ?? [];
  return (
    <section aria-labelledby="webhooks-heading">
      <h2 id="webhooks-heading">Webhooks</h2>
      <p className="note">
        The service posts each chosen event to the endpoint&rsquo;s URL, signed as the Standard Webhooks specification
        says (headers <code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>). A
        delivery that fails is tried again for about a day and a half, then marked failed; an endpoint answering 410 is
        disabled.
      </p>
      <NewWebhook
        clientId={clientId}
        full={rows.length >= MAX_ENDPOINTS}
        onCreated={(endpoint) => {
          setShown({ endpoint, rotated: false });
          endpoints.reload();
        }}
      />
      {shown && <SecretOnce shown={shown} onDone={() => setShown(null)} />}
      <FormError error={endpoints.error} fields={[]} />
      {!endpoints.data && endpoints.loading ? (
        <Loading what="Loading the webhook endpoints" />
      ) : !endpoints.data ? null : rows.length === 0 ? (
        <p>No webhook endpoint yet.</p>
      ) : (
        <ul className="cards" aria-label="Webhook endpoints">
          {rows.map((w) => (
            <WebhookCard
              key={w.id}
              clientId={clientId}
              endpoint={w}
              onRotated={(endpoint) => setShown({ endpoint, rotated: true })}
              onDeleted={() => {
                if (shown?.endpoint.id === w.id) setShown(null);
                endpoints.reload();
              }}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function NewWebhook({
  clientId,
  full,
  onCreated,
}: {
  clientId: string;
  full: boolean;
  onCreated: (endpoint: WebhookWithSecret) => void;
}) {
  const { api } = useSession();
  const create = useAction();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(['attempt.submitted']);
  const [description, setDescription] = useState('');
  const toggle = (event: WebhookEvent, on: boolean) =>
    // Kept in the order the service lists them, whatever the order of the clicks.
    setEvents((now) => WEBHOOK_EVENTS.filter((e) => (e === event ? on : now.includes(e))));
  const submit = () =>
    create.run(async () => {
      const made = await createWebhook(api, clientId, {
        url: url.trim(),
        events,
        ...(description.trim() ? { description: description.trim() } : {}),
      });
      setUrl('');
      setDescription('');
      onCreated(made);
    });
  return (
    <form
      className="card"
      aria-label="New webhook endpoint"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h3>New endpoint</h3>
      <Field
        label="Endpoint URL"
        hint="https, on a public address. On the emulators (local work) the loopback is accepted too: http://127.0.0.1 or http://localhost, for a receiver on the same machine."
      >
        <input
          type="url"
          required
          placeholder="https://example.org/hooks/exams"
          value={url}
          aria-invalid={fieldProblems(create.error, 'url').length > 0 || undefined}
          onChange={(e) => setUrl(e.target.value)}
        />
        <FieldProblems error={create.error} field="url" />
      </Field>
      <fieldset className="modes">
        <legend>Events to send</legend>
        {WEBHOOK_EVENTS.map((event) => (
          <label key={event} className="option">
            <input type="checkbox" checked={events.includes(event)} onChange={(e) => toggle(event, e.target.checked)} />{' '}
            <code>{event}</code>: {EVENT_LABELS[event]}
          </label>
        ))}
        <FieldProblems error={create.error} field="events" />
      </fieldset>
      <Field label="Description" hint="Optional, at most 200 characters">
        <input maxLength={200} value={description} onChange={(e) => setDescription(e.target.value)} />
        <FieldProblems error={create.error} field="description" />
      </Field>
      {full && (
        <p className="warning">
          The organization has {MAX_ENDPOINTS} endpoints, the most it may have: delete one before adding another.
        </p>
      )}
      <button type="submit" disabled={create.busy || !url.trim() || events.length === 0 || full}>
        Create endpoint
      </button>
      <FormError error={create.error} fields={FORM_FIELDS} />
    </form>
  );
}

/** The secret of a created or rotated endpoint, once. */
function SecretOnce({ shown, onDone }: { shown: ShownSecret; onDone: () => void }) {
  const { endpoint, rotated } = shown;
  return (
    <section className="note" aria-labelledby="secret-heading" data-testid="secret-once">
      <h3 id="secret-heading">{rotated ? 'New signing secret' : 'Signing secret'}</h3>
      <p>
        {rotated ? 'The new secret' : 'The secret'} of <code>{endpoint.url}</code>:{' '}
        <CopyValue value={endpoint.secret} label="the signing secret" testId="webhook-secret" />
      </p>
      <p className="warning">Copy it now: you will not see it again. The service keeps no way to show it later.</p>
      {rotated && (
        <p>
          The old secret keeps signing for 24 hours beside this one (each delivery carries both signatures), so the
          receiver can switch to the new secret within that time without refusing a delivery.
        </p>
      )}
      <button type="button" className="secondary" onClick={onDone}>
        I have copied it
      </button>
    </section>
  );
}

function WebhookCard({
  clientId,
  endpoint,
  onRotated,
  onDeleted,
}: {
  clientId: string;
  endpoint: Webhook;
  onRotated: (endpoint: WebhookWithSecret) => void;
  onDeleted: () => void;
}) {
  const { api } = useSession();
  const action = useAction();
  const [open, setOpen] = useState(false);
  const headingId = `webhook-${endpoint.id}`;
  const rotate = () => {
    if (
      !window.confirm(
        `Rotate the secret of ${endpoint.url}? The old secret keeps signing for 24 hours beside the new one.`,
      )
    )
      return;
    void action.run(async () => onRotated(await rotateWebhookSecret(api, clientId, endpoint.id)));
  };
  const remove = () => {
    if (!window.confirm(`Delete the endpoint ${endpoint.url}? Its pending deliveries are not sent.`)) return;
    void action.run(async () => {
      await deleteWebhook(api, clientId, endpoint.id);
      onDeleted();
    });
  };
  return (
    <li className="card" aria-labelledby={headingId} data-testid="webhook">
      <h3 id={headingId}>
        <code>{endpoint.url}</code>
      </h3>
      <p>
        {endpoint.active ? (
          <span className="badge badge-ok">Active</span>
        ) : (
          <span className="badge badge-error">Disabled</span>
        )}
        {!endpoint.active && endpoint.disabled_reason ? <> {endpoint.disabled_reason}</> : null}
      </p>
      {endpoint.description && <p>{endpoint.description}</p>}
      <p>
        Events:{' '}
        {endpoint.events.map((e, i) => (
          <span key={e}>
            {i > 0 ? ', ' : ''}
            <code>{e}</code>
          </span>
        ))}
        . Created {formatTime(endpoint.created_at)}.
      </p>
      <div className="row">
        <button
          type="button"
          className="secondary"
          aria-expanded={open}
          aria-controls={`${headingId}-deliveries`}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? 'Hide deliveries' : 'Show deliveries'}
          <span className="sr-only"> of {endpoint.url}</span>
        </button>
        <button type="button" className="secondary" disabled={action.busy} onClick={rotate}>
          Rotate secret<span className="sr-only"> of {endpoint.url}</span>
        </button>
        <button type="button" className="danger" disabled={action.busy} onClick={remove}>
          Delete<span className="sr-only"> the endpoint {endpoint.url}</span>
        </button>
      </div>
      <FormError error={action.error} fields={[]} />
      <div id={`${headingId}-deliveries`}>{open && <Deliveries clientId={clientId} endpoint={endpoint} />}</div>
    </li>
  );
}
