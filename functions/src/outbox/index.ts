// Front door of outbox/: events recorded with their change, and the channels the composition root provides for their deliveries (delivery/ sends them).
// What other folders may use; nothing else of this folder is imported from outside.
export { deliveryChannels, provideDeliveryChannels } from './channels';
export type {
  DeliveryChannel,
  DeliveryStatus,
  DeliveryTarget,
  DeliveryTry,
  PlannedDelivery,
  StoredDelivery,
  StoredEvent,
} from './documents';
export { EVENT_TYPES, recordEvent, recordRegradeEvent, recordScoreEvent } from './events';
export type { EventType } from './events';
