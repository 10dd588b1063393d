import { params } from '../config';
import type { ReachPolicy } from './addressGuard';

/**
 * The one loopback policy of every outbound call (webhooks, LTI platforms): the public internet,
 * plus loopback when ALLOW_LOOPBACK_URLS says so (the emulators' .env files). Read at each call.
 */
export const loopbackPolicy = (): ReachPolicy => ({ allowLoopback: params.allowLoopbackUrls.value() });
