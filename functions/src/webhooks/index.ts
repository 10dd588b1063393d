// Front door of webhooks/: webhook endpoints and their channel: signed deliveries of the outbox's events.
// What other folders may use; nothing else of this folder is imported from outside.
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadChannel = () => import('./channel');
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadRoutes = () => import('./routes');
