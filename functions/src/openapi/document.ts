import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { RouteDefinition } from '../http';
import { ERROR_STATUS, type ErrorCode, MAX_ERROR_DETAILS, MAX_ERROR_TEXT } from '../shared';

const ErrorBody = z
  .object({
    error: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
    message: z
      .string()
      .max(MAX_ERROR_TEXT)
      .describe(`At most ${MAX_ERROR_TEXT} characters (a longer one is cut, ending in "…")`),
    status: z.number().int(),
    details: z
      .array(
        z
          .object({
            path: z.string().max(MAX_ERROR_TEXT),
            message: z.string().max(MAX_ERROR_TEXT),
          })
          .catchall(z.unknown())
          .describe(`path, message and any other text are each at most ${MAX_ERROR_TEXT} characters`),
      )
      .max(MAX_ERROR_DETAILS)
      .optional()
      .describe(
        `At most the first ${MAX_ERROR_DETAILS} problems; details_total says how many there were when there were more`,
      ),
    details_total: z
      .number()
      .int()
      .optional()
      .describe(
        `Present only when details lists the first ${MAX_ERROR_DETAILS} of more problems: how many there were in all`,
      ),
    questions: z
      .array(z.object({}).catchall(z.unknown()))
      .optional()
      .describe(
        'POST /api/questions/import only: the per-question report (ImportedQuestion) of every question found, in file order, ok or not, as in the 201',
      ),
    rows: z
      .array(z.object({}).catchall(z.unknown()))
      .optional()
      .describe(
        'POST /api/classes/{classId}/roster only: the rows (RosterRow) that cannot be imported, in file order (a roster has at most 500)',
      ),
  })
  .meta({ id: 'Error' });

function routeErrors(route: RouteDefinition): ErrorCode[] {
  const codes = new Set<ErrorCode>(['RATE_LIMITED', 'SERVER_ERROR', ...(route.errors ?? [])]);
  // A token is checked with Auth and the request's work needs Firestore: either may be down (503).
  if (route.access !== 'public')
    ['UNAUTHORIZED', 'FORBIDDEN', 'SERVICE_UNAVAILABLE'].forEach((c) => codes.add(c as ErrorCode));
  if (route.params || route.query || route.body) codes.add('VALIDATION_ERROR');
  if (route.body || route.upload) codes.add('PAYLOAD_TOO_LARGE');
  if (route.upload) codes.add('VALIDATION_ERROR');
  return [...codes].sort((a, b) => ERROR_STATUS[a] - ERROR_STATUS[b]);
}

function openApiRoute(route: RouteDefinition): RouteConfig {
  const responses: RouteConfig['responses'] = {
    [route.success.status]: {
      description: route.success.description,
      ...(route.success.schema
        ? {
            content: Object.fromEntries(
              [route.success.mediaType ?? 'application/json']
                .flat()
                .map((type) => [type, { schema: route.success.schema }]),
            ),
          }
        : {}),
    },
  };
  for (const code of routeErrors(route)) {
    const status = ERROR_STATUS[code];
    const existing = responses[status] as { description: string } | undefined;
    responses[status] = {
      description: existing ? `${existing.description}, ${code}` : code,
      content: { 'application/json': { schema: ErrorBody } },
    };
  }
  return {
    method: route.method,
    path: `/api${route.path}`,
    summary: route.summary,
    description: route.description,
    tags: [route.tag],
    security:
      route.access === 'public'
        ? []
        : route.attemptToken
          ? [{ bearerAuth: [] }, { attemptToken: [] }, {}]
          : [{ bearerAuth: [] }],
    request: {
      params: route.params as never,
      query: route.query as never,
      body: route.body
        ? {
            required: true,
            content: route.form
              ? {
                  'application/x-www-form-urlencoded': { schema: route.body },
                  'application/json': { schema: route.body },
                }
              : { 'application/json': { schema: route.body } },
          }
        : route.upload
          ? {
              required: true,
              content: {
                'multipart/form-data': {
                  schema: z.object({
                    [route.upload.field]: z.string().meta({ format: 'binary', description: route.upload.description }),
                  }),
                },
              },
            }
          : undefined,
    },
    responses,
  };
}

/** The OpenAPI document of exactly these routes (the list the app mounts), described from their own definitions. */
export function openApiDocument(routes: RouteDefinition[]): unknown {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'Firebase ID token',
    description: 'An ID token from Firebase Authentication (email/password or anonymous sign-in)',
  });
  registry.registerComponent('securitySchemes', 'attemptToken', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Attempt-Token',
    description:
      'The attempt_token from POST /api/attempts: opens that attempt only (also accepted as ?attempt_token=, which URLs and access logs keep)',
  });
  for (const route of routes) registry.registerPath(openApiRoute(route));
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Exam backend API',
      version: '1.0.0',
      description:
        'Multi-tenant online examination backend. Every endpoint but this document and the health check ' +
        'needs `Authorization: Bearer <Firebase ID token>`. Errors are `{error, message, status}`; ' +
        'every response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (seconds). ' +
        'Limits count per address; from inside an organization’s registered networks, per signed-in user or attempt token instead.',
    },
    servers: [{ url: '/' }],
  });
}
