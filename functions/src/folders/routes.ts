import type { RouteDefinition } from '../http/route';

export const folderRoutes: RouteDefinition[] = [];
