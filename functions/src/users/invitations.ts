import { auth } from '../firestore';
import { errorText, log } from '../platform';

// An invitation is a password-setting link: Firebase Auth's password reset for an account that has
// no password yet. The service never sends mail; the reply carries the link and the admin sends it.
// It is a credential for the account while it lasts (1 hour, one use), so it is never stored or logged.

/** The link for this email's account. */
export const invitationLink = (email: string): Promise<string> => auth.generatePasswordResetLink(email);

/** Links made at once: Auth's rate for generating them is per project. */
const LINK_CONCURRENCY = 5;

/** A link per email, made a few at a time; an email whose link could not be made is left out (and logged). */
export async function invitationLinks(emails: string[]): Promise<Map<string, string>> {
  const links = new Map<string, string>();
  let next = 0;
  const worker = async () => {
    while (next < emails.length) {
      const email = emails[next++];
      try {
        links.set(email, await invitationLink(email));
      } catch (err) {
        log.warn('An invitation link could not be made', { error: errorText(err) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(LINK_CONCURRENCY, emails.length) }, worker));
  return links;
}
