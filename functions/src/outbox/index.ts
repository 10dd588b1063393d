// Front door of outbox/: events recorded with their change and delivered through the channels the composition root provides.
// What other folders may use; nothing else of this folder is imported from outside.
export { provideDeliveryChannels } from './channels';
export type {
  DeliveryChannel,
  DeliveryTarget,
  EventType,
  PlannedDelivery,
  StoredDelivery,
  StoredEvent,
} from './documents';
export { recordEvent, recordRegradeEvent, recordScoreEvent } from './events';
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadEngine = () => import('./engine');
