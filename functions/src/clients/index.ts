// Front door of clients/: organizations (clients): their documents, their email domains (one organization each: the claims in `email_domains`), and requireClient for every feature that names one.
// What other folders may use; nothing else of this folder is imported from outside.
export type { StoredClient } from './documents';
export { Client, DEFAULT_INVITATION_DAYS } from './schemas';
export { requireClient } from './service';
export { findClient } from './store';
export { findDomain } from './domainStore';
export { domainOfEmail } from './domains';
export type { StoredEmailDomain } from './documents';
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadRoutes = () => import('./routes');
