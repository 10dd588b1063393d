import { HUB_HOST } from './env';

/**
 * Turns the Functions emulator's background triggers off (or on again) through the Emulator Hub,
 * for tests that run a trigger's work by hand and must not race a late delivery of the same event.
 */
export async function setBackgroundTriggers(enabled: boolean): Promise<void> {
  const action = enabled ? 'enableBackgroundTriggers' : 'disableBackgroundTriggers';
  const response = await fetch(`http://${HUB_HOST}/functions/${action}`, { method: 'PUT' });
  if (!response.ok) throw new Error(`The Emulator Hub refused ${action}: ${response.status}`);
}
