import { z } from 'zod';
import { defineRoute, type RouteDefinition } from '../http';

/**
 * `mounted` is the app's whole route list, these two included: handed in by the
 * composition root (so this folder never imports the features), and read on the
 * first request, once the list is complete (its lazy features loaded then). The document is built once per
 * app; its generator loads with that first request, not in every cold instance.
 */
export function openApiRoutes(mounted: () => Promise<RouteDefinition[]>): RouteDefinition[] {
  let document: unknown;
  return [
    defineRoute({
      method: 'get',
      path: '/openapi.json',
      summary: 'This OpenAPI 3.1 document',
      tag: 'System',
      access: 'public',
      success: { status: 200, description: 'The OpenAPI document' },
      handler: async () => {
        if (document === undefined) {
          const { openApiDocument } = await import('./document');
          document ??= openApiDocument(await mounted());
        }
        return { status: 200, body: document };
      },
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
