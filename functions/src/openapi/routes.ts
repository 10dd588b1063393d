import { OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { defineRoute } from '../http/route';
import { registry } from './registry';

let document: unknown;

/** Built once per instance, from the same definitions that mount the routes. */
export function openApiDocument(): unknown {
  document ??= new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Exam backend API',
      version: '1.0.0',
      description:
        'Multi-tenant online examination backend. Every endpoint but this document and the health check ' +
        'needs `Authorization: Bearer <Firebase ID token>`. Errors are `{error, message, status}`; ' +
        'every response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (seconds).',
    },
    servers: [{ url: '/' }],
  });
  return document;
}

export const openApiRoutes = [
  defineRoute({
    method: 'get',
    path: '/openapi.json',
    summary: 'This OpenAPI 3.1 document',
    tag: 'System',
    access: 'public',
    success: { status: 200, description: 'The OpenAPI document' },
    handler: async () => ({ status: 200, body: openApiDocument() }),
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
