import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import express from 'express';
import { createApp } from '../../functions/src/app';
import { mountRoutes, defineRoute, type Guards } from '../../functions/src/http/route';
import { get } from '../support/http';
import { TEST_CONFIG } from '../support/inProcessApi';

// The document and the router are built from one route list. A route another
// router mounts in the same process (tests build several apps) is not the app's.

const pass: Guards = {
  countRequest: (_req, _res, next) => next(),
  authenticate: () => (_req, _res, next) => next(),
  sensitive: (_req, _res, next) => next(),
  runHandler: (_res, work) => work,
  beforeHandler: async () => undefined,
  countRefusedCredential: async () => undefined,
  countIdentified: (_req, _res, next) => next(),
};

/** `method /api/path` of every route on the app's routers, read from Express itself (lazy groups once loaded). */
function mountedRoutes(app: express.Express): string[] {
  const stack = (app as unknown as { router: { stack: any[] } }).router.stack;
  return stack.filter((layer) => layer.name === 'router').flatMap((layer) => routesOf(layer.handle, layer.rawPath));
}

function routesOf(router: { stack: any[] }, prefix: string): string[] {
  return router.stack.flatMap((inner: any) => {
    if (inner.route)
      return Object.keys(inner.route.methods).map(
        (method) => `${method} ${prefix}${inner.route.path.replace(/:(\w+)/g, '{$1}')}`,
      );
    // A group of routes: a router, or a lazy group's router once a request loaded it (http/routeGroups.ts).
    const nested = inner.name === 'router' ? inner.handle : inner.handle.mounted;
    return nested ? routesOf(nested, prefix) : [];
  });
}

describe('GET /api/openapi.json: the routes the app mounts', () => {
  let server: Server;
  let baseUrl: string;
  let mounted: string[];
  before(async () => {
    // Another router in this process, mounted before the app is built.
    mountRoutes(
      [
        defineRoute({
          method: 'get',
          path: '/not-the-apps',
          summary: 'A route only another router mounts',
          tag: 'Test',
          access: 'public',
          success: { status: 204, description: 'nothing' },
          handler: async () => ({ status: 204 }),
        }),
      ],
      pass,
    );
    const app = createApp(TEST_CONFIG);
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // A feature's routes are mounted with the first request that reaches them: under each first segment, one that
    // no route matches, so it passes every group.
    const { body } = await get('/api/openapi.json', { baseUrl });
    const segments = new Set(Object.keys(body.paths).map((path) => path.split('/')[2]));
    for (const segment of segments) await get(`/api/${segment}/a/b/c/d/e/f/g/h/none`, { baseUrl });
    mounted = mountedRoutes(app);
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('lists exactly the method and path of every route the app mounts under /api, and none another router mounted', async () => {
    const res = await get('/api/openapi.json', { baseUrl });
    assert.equal(res.status, 200, res.text);
    const listed = Object.entries(res.body.paths).flatMap(([path, ops]) =>
      Object.keys(ops as object).map((method) => `${method} ${path}`),
    );
    assert.ok(mounted.length > 40, `the app mounts its routes (${mounted.length} found)`);
    assert.ok(!listed.includes('get /api/not-the-apps'));
    assert.deepEqual(listed.sort(), [...mounted].sort());
  });
});
