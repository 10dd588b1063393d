import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { type Schemas, unwrap } from '../api';
import { useSession } from '../session';

type User = Schemas['User'];

/** How a student is shown: the name, then the email that tells two of the same name apart. */
export const personLabel = (u: Pick<User, 'uid' | 'email' | 'display_name'>) =>
  u.display_name ? `${u.display_name} (${u.email ?? u.uid})` : (u.email ?? u.uid);

const MATCHES = 10;
const PAUSE_MS = 200;

/**
 * A student picked by typing the start of its name or email: an input with a
 * listbox of matches from `GET /api/users?q=` (the ARIA combobox pattern: arrows
 * move through the matches, Enter picks, Escape closes then clears). It holds the
 * chosen student's uid; typing again forgets it until another match is picked.
 */
export function StudentCombobox({
  label,
  clientId,
  onChange,
}: {
  label: string;
  /** The organization searched (the caller's own for a Client Admin; a Super Admin must name one). */
  clientId: string;
  onChange: (uid: string) => void;
}) {
  const { api } = useSession();
  const id = useId();
  const listId = `${id}-list`;
  const hintId = `${id}-hint`;
  const [text, setText] = useState('');
  const [matches, setMatches] = useState<User[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [chosen, setChosen] = useState<User | null>(null);
  const [searching, setSearching] = useState(false);
  const [failed, setFailed] = useState(false);
  const latest = useRef(0);

  // Search after a short pause in typing; only the newest answer is shown.
  useEffect(() => {
    const q = text.trim();
    if (chosen || q.length === 0) {
      setMatches([]);
      setSearching(false);
      return;
    }
    const ticket = ++latest.current;
    setSearching(true);
    const timer = setTimeout(() => {
      unwrap(
        api.GET('/api/users', {
          params: { query: { q: q.slice(0, 100), role: 'student', limit: MATCHES, client_id: clientId } },
        }),
      )
        .then((page) => {
          if (ticket !== latest.current) return;
          setFailed(false);
          setMatches(page.data);
          setActive(page.data.length > 0 ? 0 : -1);
        })
        .catch(() => {
          if (ticket === latest.current) setFailed(true);
        })
        .finally(() => {
          if (ticket === latest.current) setSearching(false);
        });
    }, PAUSE_MS);
    return () => clearTimeout(timer);
  }, [api, clientId, text, chosen]);

  const pick = (user: User) => {
    setChosen(user);
    setText(personLabel(user));
    setOpen(false);
    setActive(-1);
    onChange(user.uid);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) setOpen(true);
      if (matches.length === 0) return;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i < 0 ? 0 : (i + step + matches.length) % matches.length));
    } else if (e.key === 'Enter' && open && active >= 0 && matches[active]) {
      e.preventDefault(); // picking, not submitting the form
      pick(matches[active]);
    } else if (e.key === 'Escape') {
      if (open) setOpen(false);
      else if (text) {
        setText('');
        setChosen(null);
        onChange('');
      }
    }
  };

  const q = text.trim();
  const expanded = open && !chosen && q.length > 0 && matches.length > 0;
  const hint = chosen
    ? `Chosen: ${personLabel(chosen)}`
    : failed
      ? 'The search failed; type again to retry.'
      : q.length === 0
        ? 'Type the start of a name or email.'
        : searching
          ? 'Searching…'
          : matches.length === 0
            ? 'No student starts with that.'
            : `${matches.length === MATCHES ? `The first ${MATCHES}` : matches.length} match${matches.length === 1 ? '' : 'es'}: arrows to move, Enter to pick.`;

  return (
    <div className="field combobox">
      <label htmlFor={`${id}-input`}>{label}</label>
      <input
        id={`${id}-input`}
        type="text"
        role="combobox"
        autoComplete="off"
        spellCheck={false}
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? `${id}-option-${active}` : undefined}
        aria-describedby={hintId}
        value={text}
        maxLength={100}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          if (chosen) {
            setChosen(null);
            onChange('');
          }
        }}
        onKeyDown={onKeyDown}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
      />
      <ul id={listId} role="listbox" aria-label={`Students matching “${q}”`} hidden={!expanded}>
        {matches.map((m, i) => (
          <li
            key={m.uid}
            id={`${id}-option-${i}`}
            role="option"
            aria-selected={i === active}
            // Before the input's blur, which would close the list under the pointer.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => pick(m)}
          >
            {personLabel(m)}
          </li>
        ))}
      </ul>
      <small id={hintId} aria-live="polite">
        {hint}
      </small>
    </div>
  );
}
