// Front door of http/: the request pipeline: the one auth middleware, route definitions, the error handler, the caller's address.
// What other folders may use; nothing else of this folder is imported from outside.
export { attemptTokenOf, usesAttemptToken } from './attemptToken';
export { authenticate, awaitAccountCheck, awaitAuthorization, recentAccountFacts } from './authenticate';
export type { AuthenticationEffects } from './authenticate';
export { bodyGuard } from './bodyGuard';
export { clientIp, trustedProxy } from './clientIp';
export { errorHandler, unknownRoute } from './errorHandler';
export { requestContext, requestOrigin } from './requestContext';
export { requestState } from './requestState';
export { defineRoute } from './route';
export type { Guards, Reply, RouteDefinition } from './route';
export { everyRoute, mountRouteGroups } from './routeGroups';
export type { RouteGroup } from './routeGroups';
