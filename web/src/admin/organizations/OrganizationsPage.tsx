import { useState } from 'react';
import { type Schemas, unwrap } from '../../api';
import { useSession } from '../../session';
import { ErrorMessage, Field, formatTime, Loading, ScrollTable, useAction, useLoad } from '../../ui';
import { Pager } from '../shared';
import { DomainsEditor } from './DomainsEditor';

const EMPTY: Schemas['CreateClient'] = { name: '', address: '', logo_url: '' };

/** Super Admin: the organizations, a new one, activation, and each one's exam-hall networks and email domains. */
export function OrganizationsPage() {
  const { api, me } = useSession();
  const [page, setPage] = useState(1);
  const [form, setForm] = useState(EMPTY);
  const [message, setMessage] = useState('');
  const [networksOf, setNetworksOf] = useState<Schemas['Client'] | null>(null);
  const [domainsOf, setDomainsOf] = useState<Schemas['Client'] | null>(null);
  const create = useAction();
  const toggle = useAction();
  const isSuper = me?.role === 'super_admin';
  const clients = useLoad(
    () =>
      isSuper
        ? unwrap(api.GET('/api/clients', { params: { query: { page, limit: 20 } } }))
        : Promise.resolve(undefined),
    [api, page, isSuper],
  );

  if (!isSuper) {
    return (
      <>
        <h1>Organizations</h1>
        <ErrorMessage error="This page is for Super Admins." />
      </>
    );
  }

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    void create.run(async () => {
      const created = await unwrap(api.POST('/api/clients', { body: form }));
      setMessage(`Created ${created.name}.`);
      setForm(EMPTY);
      clients.reload();
    });
  };
  const setActive = (client: Schemas['Client'], active_status: 0 | 1) =>
    toggle.run(async () => {
      const updated = await unwrap(
        api.PATCH('/api/clients/{clientId}', { params: { path: { clientId: client.id } }, body: { active_status } }),
      );
      setMessage(`${updated.name} is now ${updated.active_status ? 'active' : 'deactivated'}.`);
      clients.reload();
    });

  return (
    <>
      <h1>Organizations</h1>
      <form className="card" onSubmit={submit} aria-labelledby="new-org">
        <h2 id="new-org">New organization</h2>
        <div className="row">
          <Field label="Name">
            <input required value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
          </Field>
          <Field label="Address">
            <input required value={form.address} onChange={(e) => setForm({ ...form, address: e.target.value })} />
          </Field>
          <Field label="Logo URL">
            <input
              type="url"
              required
              value={form.logo_url}
              onChange={(e) => setForm({ ...form, logo_url: e.target.value })}
            />
          </Field>
          <button type="submit" disabled={create.busy}>
            Create organization
          </button>
        </div>
        <ErrorMessage error={create.error} />
      </form>
      <p role="status" aria-live="polite">
        {message}
      </p>
      <ErrorMessage error={clients.error} />
      <ErrorMessage error={toggle.error} />
      {clients.loading && !clients.data && <Loading what="Loading the organizations" />}
      {clients.data && (
        <ScrollTable label="Organizations">
          <caption className="sr-only">Organizations</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Id</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {clients.data.clients.map((c) => (
              <tr key={c.id}>
                <td>{c.name}</td>
                <td>
                  <code>{c.id}</code>
                </td>
                <td>{c.active_status ? 'Active' : 'Deactivated'}</td>
                <td>{formatTime(c.created_at)}</td>
                <td className="row">
                  {c.active_status ? (
                    <button type="button" className="danger" disabled={toggle.busy} onClick={() => setActive(c, 0)}>
                      Deactivate<span className="sr-only"> {c.name}</span>
                    </button>
                  ) : (
                    <button type="button" disabled={toggle.busy} onClick={() => setActive(c, 1)}>
                      Activate<span className="sr-only"> {c.name}</span>
                    </button>
                  )}
                  <button type="button" className="secondary" onClick={() => setNetworksOf(c)}>
                    Networks<span className="sr-only"> of {c.name}</span>
                  </button>
                  <button type="button" className="secondary" onClick={() => setDomainsOf(c)}>
                    Email domains<span className="sr-only"> of {c.name}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
      <Pager pagination={clients.data?.pagination} page={page} onPage={setPage} what="organizations" />
      {networksOf && <NetworksEditor key={networksOf.id} client={networksOf} onClose={() => setNetworksOf(null)} />}
      {domainsOf && <DomainsEditor key={domainsOf.id} client={domainsOf} onClose={() => setDomainsOf(null)} />}
    </>
  );
}

/** An organization's exam-hall networks: one CIDR prefix per line, replaced whole on save. */
function NetworksEditor({ client, onClose }: { client: Schemas['Client']; onClose: () => void }) {
  const { api } = useSession();
  const [text, setText] = useState<string | null>(null);
  const [saved, setSaved] = useState('');
  const save = useAction();
  const clientId = client.id;
  const current = useLoad(async () => {
    const r = await unwrap(api.GET('/api/clients/{clientId}/networks', { params: { path: { clientId } } }));
    setText(r.networks.join('\n'));
    return r;
  }, [api, clientId]);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    void save.run(async () => {
      const networks = (text ?? '')
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
      const r = await unwrap(
        api.PUT('/api/clients/{clientId}/networks', { params: { path: { clientId } }, body: { networks } }),
      );
      setText(r.networks.join('\n'));
      setSaved(`Saved ${r.networks.length} network${r.networks.length === 1 ? '' : 's'} for ${client.name}.`);
    });
  };

  return (
    <section className="card" aria-labelledby="networks">
      <h2 id="networks">Networks of {client.name}</h2>
      <ErrorMessage error={current.error} />
      {text === null ? (
        <Loading what="Loading the networks" />
      ) : (
        <form onSubmit={submit}>
          <Field
            label="Networks, one CIDR prefix per line"
            hint="IPv4 /16 or longer, IPv6 /32 or longer, at most 50. Empty removes them all."
          >
            <textarea rows={6} cols={40} value={text} onChange={(e) => setText(e.target.value)} />
          </Field>
          <div className="row">
            <button type="submit" disabled={save.busy}>
              Save networks
            </button>
            <button type="button" className="secondary" onClick={onClose}>
              Close
            </button>
          </div>
          <ErrorMessage error={save.error} />
          <p role="status" aria-live="polite">
            {saved}
          </p>
        </form>
      )}
    </section>
  );
}
