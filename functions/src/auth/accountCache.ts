import { auth } from '../firestore';
import { readCache } from '../shared';
import { ACCOUNT_RECHECK_MS, type AccountFacts } from './accountStatus';

const MAX_CACHED_ACCOUNTS = 10_000;
// Fresh for ACCOUNT_RECHECK_MS from when Auth was asked; a failed read is forgotten at once.
const accountFacts = readCache<AccountFacts>({ max: MAX_CACHED_ACCOUNTS, ttlMs: ACCOUNT_RECHECK_MS });

async function fetchAccountFacts(uid: string): Promise<AccountFacts> {
  try {
    const user = await auth.getUser(uid);
    return {
      exists: true,
      disabled: user.disabled,
      validAfterMs: user.tokensValidAfterTime ? Date.parse(user.tokensValidAfterTime) : null,
      claims: user.customClaims,
    };
  } catch (err) {
    if ((err as { code?: unknown }).code === 'auth/user-not-found')
      return { exists: false, disabled: false, validAfterMs: null, claims: undefined };
    throw err;
  }
}

/**
 * The account as Auth described it at most ACCOUNT_RECHECK_MS ago: one Auth
 * call per account per instance per minute. Every write's revocation check,
 * admins' bearer requests and every use of an attempt token (its taker's
 * account) are checked against it.
 */
export function recentAccountFacts(uid: string): Promise<AccountFacts> {
  return accountFacts.get(uid, () => fetchAccountFacts(uid));
}

/** This instance changed the account (revoked its tokens, disabled or deleted it): the next check asks Auth again. */
export const forgetAccount = (uid: string): void => accountFacts.forget(uid);

/** Test hook: forget every account description (as a fresh instance would). */
export const forgetAccountFacts = (): void => accountFacts.clear();
