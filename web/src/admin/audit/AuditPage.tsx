import { useState } from 'react';
import { type paths, unwrap } from '../../api';
import { useSession } from '../../session';
import { ErrorMessage, Field, formatTime, Loading, ScrollTable, useLoad } from '../../ui';
import { useOrg } from '../org';
import { Pager } from '../shared';
import { describeEvent, EVENT_TYPES } from './auditText';

type AuditQuery = NonNullable<paths['/api/audit-logs']['get']['parameters']['query']>;
type EventType = NonNullable<AuditQuery['event_type']>;

interface Filters {
  event_type: EventType | '';
  user_id: string;
  success: AuditQuery['success'] | '';
}
const NO_FILTERS: Filters = { event_type: '', user_id: '', success: '' };

/** The audit log: sign-ins, refused tokens, user changes and sitting events, filtered and paginated. */
export function AuditPage() {
  const { api, me } = useSession();
  const { clientId } = useOrg();
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const query: AuditQuery = {
    page,
    limit: 25,
    ...(me?.role === 'super_admin' && clientId ? { client_id: clientId } : {}),
    ...(filters.event_type ? { event_type: filters.event_type } : {}),
    ...(filters.user_id.trim() ? { user_id: filters.user_id.trim() } : {}),
    ...(filters.success ? { success: filters.success } : {}),
  };
  const logs = useLoad(() => unwrap(api.GET('/api/audit-logs', { params: { query } })), [api, JSON.stringify(query)]);

  const apply = (e: React.FormEvent) => {
    e.preventDefault();
    setFilters(draft);
    setPage(1);
  };

  return (
    <>
      <h1>Audit log</h1>
      <form className="row card" onSubmit={apply} aria-label="Filters">
        <Field label="Event type">
          <select
            value={draft.event_type}
            onChange={(e) => setDraft({ ...draft, event_type: e.target.value as Filters['event_type'] })}
          >
            <option value="">Any</option>
            {EVENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {t.replace(/_/g, ' ')}
              </option>
            ))}
          </select>
        </Field>
        <Field label="User id">
          <input value={draft.user_id} onChange={(e) => setDraft({ ...draft, user_id: e.target.value })} />
        </Field>
        <Field label="Outcome">
          <select
            value={draft.success}
            onChange={(e) => setDraft({ ...draft, success: e.target.value as Filters['success'] })}
          >
            <option value="">Any</option>
            <option value="true">Succeeded</option>
            <option value="false">Failed</option>
          </select>
        </Field>
        <button type="submit">Apply filters</button>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setDraft(NO_FILTERS);
            setFilters(NO_FILTERS);
            setPage(1);
          }}
        >
          Clear filters
        </button>
      </form>
      <ErrorMessage error={logs.error} />
      {logs.loading && <Loading what="Loading the audit log" />}
      {logs.data && !logs.loading && (
        <ScrollTable label="Audit records">
          <caption className="sr-only">Audit records, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Event</th>
              <th scope="col">Outcome</th>
              <th scope="col">Address</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {logs.data.data.length === 0 && (
              <tr>
                <td colSpan={5}>No record matches.</td>
              </tr>
            )}
            {logs.data.data.map((r) => (
              <tr key={r.id} data-event-type={r.event_type}>
                <td>{formatTime(r.timestamp)}</td>
                <td className="event">{describeEvent(r)}</td>
                <td>{r.success ? 'Succeeded' : 'Failed'}</td>
                <td>{r.ip_address || '—'}</td>
                <td className="details">
                  {/* The raw record, for whoever asks: ids, the request, the event's own details. */}
                  <details>
                    <summary>Details</summary>
                    <dl>
                      <dt>Event</dt>
                      <dd>{r.event_type}</dd>
                      <dt>User id</dt>
                      <dd>
                        <code>{r.user_id || '—'}</code>
                      </dd>
                      {r.actor_id ? (
                        <>
                          <dt>By</dt>
                          <dd>
                            <code>{r.actor_id}</code>
                          </dd>
                        </>
                      ) : null}
                      <dt>Request</dt>
                      <dd>
                        <code>{r.request_id}</code>
                      </dd>
                    </dl>
                    {r.details ? <pre>{JSON.stringify(r.details, null, 2)}</pre> : null}
                  </details>
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
      <Pager pagination={logs.data?.pagination} page={page} onPage={setPage} what="the audit log" />
    </>
  );
}
