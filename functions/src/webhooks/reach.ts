import { params } from '../config';
import type { ReachPolicy } from './addressGuard';

/** Where receivers may be: the public internet, plus loopback when ALLOW_LOOPBACK_URLS says so (the emulators' .env files). */
export const reachPolicy = (): ReachPolicy => ({ allowLoopback: params.allowLoopbackUrls.value() });
