import { z } from 'zod';
import { defineRoute, type RouteDefinition } from '../http/route';
import { openApiDocument } from './document';

/**
 * `mounted` is the app's whole route list, these two included: handed in by the
 * composition root (so this folder never imports the features), and read on the
 * first request, once the list is complete. The document is built once per app.
 */
export function openApiRoutes(mounted: () => RouteDefinition[]): RouteDefinition[] {
  let document: unknown;
  return [
    defineRoute({
      method: 'get',
      path: '/openapi.json',
      summary: 'This OpenAPI 3.1 document',
      tag: 'System',
      access: 'public',
      success: { status: 200, description: 'The OpenAPI document' },
      handler: async () => ({ status: 200, body: (document ??= openApiDocument(mounted())) }),
    }),
    defineRoute({
      method: 'get',
      path: '/health',
      summary: 'Liveness check',
      tag: 'System',
      access: 'public',
      success: { status: 200, description: 'The service is up', schema: z.object({ status: z.literal('ok') }) },
      handler: async () => ({ status: 200, body: { status: 'ok' } }),
    }),
  ];
}
