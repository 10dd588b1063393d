// Front door of delivery/: the delivery engine: an event's deliveries made, tried and retried through the outbox's channels.
// What other folders may use; nothing else of this folder is imported from outside. Only the outbox's
// functions and the webhooks' routes load it, never the api's cold start.
export { fanOut, runDue } from './engine';
export { MAX_TRIES, resent } from './retry';
export { DELIVERY_KEPT_MS } from './store';
