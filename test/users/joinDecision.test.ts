import assert from 'node:assert/strict';
import { joinDecision, type JoinDecision, type JoinFacts } from '../../functions/src/users/joinDecision';

const caller: JoinFacts['caller'] = {
  uid: 'new',
  provider: 'google.com',
  email: 'ann@a.edu',
  emailVerified: true,
  disabled: false,
  role: null,
  clientId: null,
};
const roster = (clientId: string | null, more: Partial<NonNullable<JoinFacts['roster']>> = {}) => ({
  uid: 'roster',
  role: clientId ? ('student' as const) : null,
  clientId,
  disabled: false,
  ...more,
});
const facts = (more: Partial<JoinFacts> = {}, who: Partial<JoinFacts['caller']> = {}): JoinFacts => ({
  caller: { ...caller, ...who },
  roster: null,
  domainClient: null,
  active: { A: true, B: true, OFF: false },
  ...more,
});

const refused = (pattern: RegExp) => (d: JoinDecision) => {
  assert.equal(d.kind, 'refuse');
  if (d.kind === 'refuse') assert.match(d.message, pattern);
};
const is = (expected: JoinDecision) => (d: JoinDecision) => assert.deepEqual(d, expected);

const cases: [string, JoinFacts, (d: JoinDecision) => void][] = [
  [
    'an email of a bound domain joins its organization',
    facts({ domainClient: 'A' }),
    is({ kind: 'join', clientId: 'A' }),
  ],
  [
    'a Microsoft account joins as a Google one does',
    facts({ domainClient: 'A' }, { provider: 'microsoft.com' }),
    is({ kind: 'join', clientId: 'A' }),
  ],
  [
    'no profile and no bound domain: 403, never a new organization',
    facts(),
    refused(/ann@a\.edu is not registered with any school here; ask your school/),
  ],
  [
    'an unverified email counts for nothing, bound domain or roster',
    facts({ domainClient: 'A', roster: roster('A') }, { emailVerified: false }),
    refused(/no verified email/),
  ],
  ['no email at all', facts({ domainClient: 'A' }, { email: null }), refused(/no verified email/)],
  [
    'a password sign-in does not join',
    facts({ domainClient: 'A' }, { provider: 'password' }),
    refused(/Google or Microsoft/),
  ],
  [
    'an anonymous sign-in does not join',
    facts({ domainClient: 'A' }, { provider: 'anonymous' }),
    refused(/Google or Microsoft/),
  ],
  ['a disabled account is refused', facts({ domainClient: 'A' }, { disabled: true }), refused(/disabled/)],
  ['a deactivated organization is refused', facts({ domainClient: 'OFF' }), refused(/not active/)],
  [
    'the roster account of the email is taken over (linked)',
    facts({ roster: roster('A') }),
    is({ kind: 'link', rosterUid: 'roster', role: 'student', clientId: 'A' }),
  ],
  [
    'the roster wins within its own domain’s organization',
    facts({ roster: roster('A'), domainClient: 'A' }),
    is({ kind: 'link', rosterUid: 'roster', role: 'student', clientId: 'A' }),
  ],
  [
    'another organization’s roster of a domain bound to B is refused',
    facts({ roster: roster('A'), domainClient: 'B' }),
    refused(/bound to another organization/),
  ],
  [
    'a Client Admin’s profile is taken over with a verified email',
    facts({ roster: roster('A', { role: 'client_admin' }) }),
    is({ kind: 'link', rosterUid: 'roster', role: 'client_admin', clientId: 'A' }),
  ],
  [
    'a Super Admin’s account is never taken over',
    facts({ roster: roster(null, { role: 'super_admin' }) }),
    refused(/Super Admin/),
  ],
  ['a disabled roster account is refused', facts({ roster: roster('A', { disabled: true }) }), refused(/disabled/)],
  ['a roster in a deactivated organization is refused', facts({ roster: roster('OFF') }), refused(/not active/)],
  [
    'an account of that email without our claims is no roster',
    facts({ roster: roster(null), domainClient: 'A' }),
    is({ kind: 'join', clientId: 'A' }),
  ],
  [
    'an account Firebase merged into the roster’s only gets what is missing',
    facts({ domainClient: 'A' }, { uid: 'roster', role: 'student', clientId: 'A' }),
    is({ kind: 'member', uid: 'roster', role: 'student', clientId: 'A', via: 'domain' }),
  ],
  [
    'a repeated call of a roster member answers member',
    facts({}, { role: 'student', clientId: 'A' }),
    is({ kind: 'member', uid: 'new', role: 'student', clientId: 'A', via: 'roster' }),
  ],
  [
    'an account Firebase merged into another organization’s roster of a domain bound to B is refused',
    facts({ domainClient: 'B' }, { uid: 'roster', role: 'student', clientId: 'A' }),
    refused(/bound to another organization/),
  ],
  [
    'a member of a deactivated organization is refused',
    facts({}, { role: 'student', clientId: 'OFF' }),
    refused(/not active/),
  ],
  [
    'a Super Admin never joins through a provider',
    facts({ domainClient: 'A' }, { role: 'super_admin' }),
    refused(/Super Admin/),
  ],
];

describe('joinDecision: a first sign-in with a school account', () => {
  for (const [name, input, check] of cases) it(name, () => check(joinDecision(input)));
});
