import type { DeliveryChannel } from './documents';

// The kinds of receivers the engine delivers to, handed over by the composition
// root (provideEffects in app.ts) under the names their targets' `kind` carries:
// the outbox knows no channel by name.

export type DeliveryChannels = Partial<Record<string, DeliveryChannel>>;

let provided: DeliveryChannels | undefined;

/** Called by provideEffects before any event is fanned out or delivery tried; `undefined` forgets them (a test of the missing hook). */
export function provideDeliveryChannels(channels: DeliveryChannels | undefined): void {
  provided = channels;
}

/** The channels provided; none is a wiring mistake, thrown before anything is planned or sent. */
export function deliveryChannels(): DeliveryChannels {
  if (!provided)
    throw new Error(
      'No delivery channels provided: the composition root (provideEffects in app.ts) must run before the outbox delivers',
    );
  return provided;
}
