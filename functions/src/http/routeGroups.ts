import express from 'express';
import { mountRoutes, type Guards, type RouteDefinition } from './route';

// The app's one ordered list of routes, cut into runs so that a cold instance
// loads only the features its requests reach: a taker's save never loads the
// authoring, import, export or integration code (bench/README.md, cold start).

/**
 * A run of consecutive routes of the list. Eager: loaded with the app. Lazy: its
 * module is loaded on the first request whose path (below /api) begins with one
 * of `segments`, or when the whole list is asked for (the OpenAPI document).
 * Every path of a lazy group begins with one of its segments
 * (test/http/routeGroups.test.ts holds the app's groups to it), so a request
 * that skips a group could not have matched any of its routes: the order of
 * matching, and so every answer, is that of the one list.
 */
export type RouteGroup =
  { routes: RouteDefinition[] } | { segments: readonly string[]; load: () => Promise<RouteDefinition[]> };

/** Every route of the groups, in order, the lazy ones loaded. */
export async function everyRoute(groups: readonly RouteGroup[]): Promise<RouteDefinition[]> {
  const runs = await Promise.all(groups.map((group) => ('routes' in group ? group.routes : group.load())));
  return runs.flat();
}

/** The first segment of a path below the mount point, compared as Express compares paths (case-insensitively). */
function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return (end < 0 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

/**
 * The groups mounted in order on one router. A lazy group's router is built on
 * the first request that may match it; later requests use it as it is.
 */
export function mountRouteGroups(groups: readonly RouteGroup[], guards: Guards): express.Router {
  const router = express.Router();
  for (const group of groups) {
    if ('routes' in group) {
      router.use(mountRoutes(group.routes, guards));
      continue;
    }
    const segments = new Set(group.segments.map((segment) => segment.toLowerCase()));
    let mounted: express.Router | undefined;
    let loading: Promise<express.Router> | undefined;
    const lazyGroup: express.RequestHandler = (req, res, next) => {
      const segment = firstSegment(req.path);
      // A percent-encoded segment is passed on to the group's own matching rather than judged here.
      if (!segments.has(segment) && !segment.includes('%')) return next();
      if (mounted) return mounted(req, res, next);
      loading ??= group.load().then(
        (routes) => (mounted = mountRoutes(routes, guards)),
        (err: unknown) => {
          loading = undefined;
          throw err;
        },
      );
      return loading.then((loaded) => loaded(req, res, next));
    };
    // What a test reads to list the routes mounted: the group's router, once a request has loaded it.
    Object.defineProperty(lazyGroup, 'mounted', { get: () => mounted });
    router.use(lazyGroup);
  }
  return router;
}
