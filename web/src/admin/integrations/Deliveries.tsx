import { useState } from 'react';
import { useSession } from '../../session';
import { formatTime, Loading, ScrollTable, useAction, useLoad } from '../../ui';
import { Pager } from '../shared';
import { FormError } from './formParts';
import {
  listDeliveries,
  resendDelivery,
  type DeliveryStatus,
  type Webhook,
  type WebhookDelivery,
} from './integrationsApi';

const BADGE: Record<DeliveryStatus, string> = {
  delivered: 'badge badge-ok',
  failed: 'badge badge-error',
  pending: 'badge badge-unsupported',
};

/** An endpoint's deliveries, newest first, paged; each can be sent again. */
export function Deliveries({ clientId, endpoint }: { clientId: string; endpoint: Webhook }) {
  const { api } = useSession();
  const [page, setPage] = useState(1);
  const deliveries = useLoad(
    () => listDeliveries(api, clientId, endpoint.id, page),
    [api, clientId, endpoint.id, page],
  );
  const rows = deliveries.data?.data ?? [];
  return (
    <section aria-label={`Deliveries to ${endpoint.url}`}>
      <div className="row">
        <h4>Deliveries</h4>
        {/* Deliveries move on their own (retries, a receiver answering): the list is read again on demand. */}
        <button type="button" className="secondary" disabled={deliveries.loading} onClick={deliveries.reload}>
          Refresh<span className="sr-only"> the deliveries to {endpoint.url}</span>
        </button>
      </div>
      <FormError error={deliveries.error} fields={[]} />
      {!deliveries.data && deliveries.loading ? (
        <Loading what="Loading the deliveries" />
      ) : !deliveries.data ? null : (
        <ScrollTable label={`Delivery list of ${endpoint.url}`}>
          <caption className="sr-only">Deliveries to {endpoint.url}, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Tries</th>
              <th scope="col">Last code</th>
              <th scope="col">Last error</th>
              <th scope="col">Next try</th>
              <th scope="col">Created</th>
              <th scope="col">Updated</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={9}>No delivery yet.</td>
              </tr>
            )}
            {rows.map((d) => (
              <DeliveryRow key={d.id} clientId={clientId} endpoint={endpoint} delivery={d} />
            ))}
          </tbody>
        </ScrollTable>
      )}
      <Pager
        pagination={deliveries.data?.pagination}
        page={page}
        onPage={setPage}
        what={`deliveries to ${endpoint.url}`}
      />
    </section>
  );
}

function DeliveryRow({
  clientId,
  endpoint,
  delivery: listed,
}: {
  clientId: string;
  endpoint: Webhook;
  delivery: WebhookDelivery;
}) {
  const { api } = useSession();
  const action = useAction();
  // The resend's reply is the delivery as it now stands: shown at once, without reading the page again
  // (every read of deliveries counts against the admin's sensitive-operation limit); a later read wins.
  const [resent, setResent] = useState<WebhookDelivery | null>(null);
  const delivery = resent && resent.updated_at > listed.updated_at ? resent : listed;
  const resend = () => action.run(async () => setResent(await resendDelivery(api, clientId, endpoint.id, listed.id)));
  return (
    <tr data-testid="delivery" data-status={delivery.status}>
      <td>
        <code>{delivery.event_type}</code>
        <br />
        <small>
          <code title="The webhook-id header, the same on every try">{delivery.message_id}</code>
        </small>
      </td>
      <td>
        <span className={BADGE[delivery.status]}>{delivery.status}</span>
      </td>
      <td>{delivery.tries}</td>
      <td>{delivery.last_code ?? '—'}</td>
      <td>
        {delivery.last_error ?? '—'}
        <FormError error={action.error} fields={[]} />
      </td>
      <td>{delivery.status === 'pending' ? formatTime(delivery.next_try_at) : '—'}</td>
      <td>{formatTime(delivery.created_at)}</td>
      <td>{formatTime(delivery.updated_at)}</td>
      <td>
        <button type="button" className="secondary" disabled={action.busy} onClick={() => void resend()}>
          Resend
          <span className="sr-only">
            {' '}
            the {delivery.event_type} delivery {delivery.message_id}
          </span>
        </button>
      </td>
    </tr>
  );
}
