import type { RouteDefinition } from '../http/route';

export const testRoutes: RouteDefinition[] = [];
