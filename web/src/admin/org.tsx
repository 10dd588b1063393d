import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { unwrap } from '../api';
import { useSession } from '../session';
import { ErrorMessage, Field } from '../ui';

/**
 * The organization the admin pages work on: a Client Admin's own; a Super Admin
 * picks one (the API needs client_id from it on every tenant list).
 */
const OrgContext = createContext<{ clientId: string | null; setClientId: (id: string) => void }>({
  clientId: null,
  setClientId: () => {},
});

export function OrgProvider({ children }: { children: ReactNode }) {
  const { me } = useSession();
  const [picked, setPicked] = useState(() => localStorage.getItem('admin:client_id'));
  const clientId = me?.role === 'super_admin' ? picked : (me?.client_id ?? null);
  const setClientId = (id: string) => {
    localStorage.setItem('admin:client_id', id);
    setPicked(id);
  };
  return <OrgContext.Provider value={{ clientId, setClientId }}>{children}</OrgContext.Provider>;
}

export const useOrg = () => useContext(OrgContext);

/** For a Super Admin: which organization the pages show. */
export function OrgPicker() {
  const { api, me } = useSession();
  const { clientId, setClientId } = useOrg();
  const [clients, setClients] = useState<Array<{ id: string; name: string }>>([]);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (me?.role !== 'super_admin') return;
    unwrap(api.GET('/api/clients')).then((r) => setClients(r.clients), setError);
  }, [api, me]);
  if (me?.role !== 'super_admin') return null;
  return (
    <div className="org-picker">
      <Field label="Organization">
        <select value={clientId ?? ''} onChange={(e) => setClientId(e.target.value)}>
          <option value="" disabled>
            Choose…
          </option>
          {clients.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </Field>
      <ErrorMessage error={error} />
    </div>
  );
}

/** Renders its children once an organization is chosen. */
export function NeedsOrg({ children }: { children: (clientId: string) => ReactNode }) {
  const { clientId } = useOrg();
  if (!clientId) return <p>Choose an organization first.</p>;
  return <>{children(clientId)}</>;
}
