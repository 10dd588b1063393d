import type { RouteDefinition } from '../http/route';

export const questionRoutes: RouteDefinition[] = [];
