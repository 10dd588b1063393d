import { useState } from 'react';
import { unwrap } from '../../api/client';
import type { paths } from '../../api/schema';
import { useSession } from '../../session';
import { ErrorMessage, Field, formatTime, Loading, ScrollTable, useLoad } from '../../ui';
import { useOrg } from '../org';
import { Pager } from '../Pager';

type AuditQuery = NonNullable<paths['/api/audit-logs']['get']['parameters']['query']>;
type EventType = NonNullable<AuditQuery['event_type']>;

// Every event type the API knows: the Record makes the compiler check none is missing.
const EVENT_TYPES = Object.keys({
  login: 1,
  token_rejected: 1,
  user_created: 1,
  role_changed: 1,
  password_changed: 1,
  profile_changed: 1,
  user_disabled: 1,
  user_enabled: 1,
  user_deleted: 1,
  invitation_issued: 1,
  attempt_started: 1,
  attempt_resumed: 1,
  share_code_redeemed: 1,
  attempt_submitted: 1,
  test_settings_changed: 1,
  override_set: 1,
  override_deleted: 1,
  accommodation_set: 1,
  attempt_extended: 1,
  test_extended: 1,
  test_assignment_changed: 1,
  test_version_published: 1,
  test_new_version_discarded: 1,
  class_override_set: 1,
  class_override_deleted: 1,
  class_created: 1,
  class_updated: 1,
  class_deleted: 1,
  class_member_added: 1,
  class_member_removed: 1,
  class_members_imported: 1,
  networks_set: 1,
  essay_graded: 1,
  version_regraded: 1,
  attempt_regraded: 1,
  lti_platform_registered: 1,
  lti_platform_deleted: 1,
  webhook_created: 1,
  webhook_deleted: 1,
  webhook_secret_rotated: 1,
  webhook_disabled: 1,
  webhook_delivery_resent: 1,
} satisfies Record<EventType, 1>) as EventType[];

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
              <th scope="col">User</th>
              <th scope="col">Outcome</th>
              <th scope="col">Address</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {logs.data.data.length === 0 && (
              <tr>
                <td colSpan={6}>No record matches.</td>
              </tr>
            )}
            {logs.data.data.map((r) => (
              <tr key={r.id} data-event-type={r.event_type}>
                <td>{formatTime(r.timestamp)}</td>
                <td>{r.event_type.replace(/_/g, ' ')}</td>
                <td>
                  <code>{r.user_id || '—'}</code>
                  {r.actor_id && r.actor_id !== r.user_id ? <small> by {r.actor_id}</small> : null}
                </td>
                <td>{r.success ? 'Succeeded' : 'Failed'}</td>
                <td>{r.ip_address}</td>
                <td className="details">
                  {r.reason ? <span>Reason: {r.reason}. </span> : null}
                  {r.details ? <code>{JSON.stringify(r.details)}</code> : null}
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
