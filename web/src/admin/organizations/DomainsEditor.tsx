import { useState } from 'react';
import { ApiError, authorizedFetch, type Schemas } from '../../api';
import { useSession } from '../../session';
import { ErrorMessage, Field, Loading, useAction, useLoad } from '../../ui';

// Calls by hand, not through the typed client: the generated api/schema.d.ts is regenerated from a build,
// and these three operations are small enough to type here.
interface EmailDomain {
  domain: string;
  client_id: string;
  created_at: string;
}

async function send(user: { getIdToken(): Promise<string> }, method: string, url: string, body?: unknown) {
  const response = await fetch(url, {
    method,
    headers: {
      Authorization: `Bearer ${await user.getIdToken()}`,
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok)
    throw new ApiError(
      response.status,
      String(json.error ?? 'SERVER_ERROR'),
      String(json.message ?? `The service answered ${response.status}`),
      (json.details as ApiError['details']) ?? [],
      json,
    );
  return json;
}

/** The email domains whose school accounts join this organization on their first sign-in. */
export function DomainsEditor({ client, onClose }: { client: Schemas['Client']; onClose: () => void }) {
  const { auth } = useSession();
  const [domain, setDomain] = useState('');
  const [saved, setSaved] = useState('');
  const change = useAction();
  const url = `/api/clients/${encodeURIComponent(client.id)}/domains`;
  const current = useLoad(
    async () => ((await (await authorizedFetch(auth, url)).json()) as { domains: EmailDomain[] }).domains,
    [auth, url],
  );

  const bind = (e: React.FormEvent) => {
    e.preventDefault();
    void change.run(async () => {
      const bound = (await send(auth.currentUser!, 'POST', url, { domain })) as unknown as EmailDomain;
      setSaved(`${bound.domain} is bound to ${client.name}.`);
      setDomain('');
      current.reload();
    });
  };
  const unbind = (d: EmailDomain) =>
    change.run(async () => {
      await send(auth.currentUser!, 'DELETE', `${url}/${encodeURIComponent(d.domain)}`);
      setSaved(`${d.domain} is no longer bound to ${client.name}.`);
      current.reload();
    });

  return (
    <section className="card" aria-labelledby="domains">
      <h2 id="domains">Email domains of {client.name}</h2>
      <p>
        A student signing in with a Google or Microsoft account of one of these domains joins {client.name}. A domain
        belongs to one organization; public mail services (gmail.com, outlook.com, …) cannot be bound.
      </p>
      <ErrorMessage error={current.error} />
      {current.loading && !current.data && <Loading what="Loading the domains" />}
      {current.data && (
        <ul aria-label={`Email domains of ${client.name}`}>
          {current.data.length === 0 && <li>None yet.</li>}
          {current.data.map((d) => (
            <li key={d.domain} className="row">
              <code>{d.domain}</code>
              <button type="button" className="danger" disabled={change.busy} onClick={() => void unbind(d)}>
                Unbind<span className="sr-only"> {d.domain}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={bind}>
        <div className="row">
          <Field label="Email domain" hint="e.g. school.example.edu">
            <input required value={domain} onChange={(e) => setDomain(e.target.value)} />
          </Field>
          <button type="submit" disabled={change.busy}>
            Bind domain
          </button>
          <button type="button" className="secondary" onClick={onClose}>
            Close
          </button>
        </div>
        <ErrorMessage error={change.error} />
        <p role="status" aria-live="polite">
          {saved}
        </p>
      </form>
    </section>
  );
}
