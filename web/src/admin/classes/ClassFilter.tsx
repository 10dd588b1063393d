import { useSearchParams } from 'react-router';
import { useSession } from '../../session';
import { ErrorMessage, Field, useLoad } from '../../ui';
import { useOrg } from '../org';
import { allClasses, classLabel, orgQuery } from './classApi';

/** The class a page is filtered by, kept in the address (?class_id=) so a filtered view can be shared. */
export function useClassFilter(): [string, (classId: string) => void] {
  const [params, setParams] = useSearchParams();
  const classId = params.get('class_id') ?? '';
  const set = (id: string) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (id) next.set('class_id', id);
        else next.delete('class_id');
        return next;
      },
      { replace: true },
    );
  return [classId, set];
}

/** A select of the organization's classes, "Everyone" first. */
export function ClassFilter({ value, onChange }: { value: string; onChange: (classId: string) => void }) {
  const { api, me } = useSession();
  const { clientId } = useOrg();
  const classes = useLoad(() => allClasses(api, orgQuery(clientId, me?.role === 'super_admin')), [api, clientId]);
  return (
    <div className="row class-filter">
      <Field label="Class">
        <select value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">Everyone</option>
          {(classes.data ?? []).map((c) => (
            <option key={c.id} value={c.id}>
              {classLabel(c)}
            </option>
          ))}
          {/* A class in the address that is not (or no longer) listed stays shown as chosen. */}
          {value && classes.data && !classes.data.some((c) => c.id === value) && <option value={value}>{value}</option>}
        </select>
      </Field>
      <ErrorMessage error={classes.error} />
    </div>
  );
}
