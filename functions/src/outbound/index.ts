// Front door of outbound/: every request this service sends: one guarded sender, one address guard, one loopback policy.
// What other folders may use; nothing else of this folder is imported from outside.
export { addressAllowed, checkOutboundUrl } from './addressGuard';
export type { ReachPolicy, UrlProblem } from './addressGuard';
export { loopbackPolicy } from './loopback';
export { MAX_RESPONSE_BYTES, sendOnce } from './sender';
export type { OutboundFailure, OutboundReply, OutboundRequest } from './sender';
