// Front door of rateLimit/: rate limits per address, identity and sensitive operation, and lockouts.
// What other folders may use; nothing else of this folder is imported from outside.
export { ipLimitPassed, rateLimiter, startCountAs, startIdentifiedCount, startIpCount } from './middleware';
export type { RateLimiter } from './middleware';
