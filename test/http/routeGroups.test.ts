import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import express from 'express';
import { z } from '../../functions/node_modules/zod';
import { routeGroups } from '../../functions/src/app';
import { defineRoute, type Guards, type RouteDefinition } from '../../functions/src/http/route';
import { everyRoute, mountRouteGroups, type RouteGroup } from '../../functions/src/http/routeGroups';

const pass: Guards = {
  countRequest: (_req, _res, next) => next(),
  authenticate: () => (_req, _res, next) => next(),
  sensitive: (_req, _res, next) => next(),
  runHandler: (_res, work) => work,
  beforeHandler: async () => undefined,
  countRefusedCredential: async () => undefined,
  countIdentified: (_req, _res, next) => next(),
};

const answering = (method: 'get' | 'post', path: string, answer: string): RouteDefinition =>
  defineRoute({
    method,
    path,
    summary: answer,
    tag: 'Test',
    access: 'public',
    params: path.includes('{id}') ? z.object({ id: z.string() }) : undefined,
    success: { status: 200, description: answer },
    handler: async () => ({ status: 200, body: { answer } }),
  });

describe('the app route groups (functions/src/app.ts routeGroups)', () => {
  it('list each lazy group under the first segments of all its paths, so skipping a group never skips a route', async () => {
    for (const group of routeGroups()) {
      if ('routes' in group) continue;
      const routes = await group.load();
      assert.ok(routes.length > 0);
      for (const route of routes) {
        const segment = route.path.split('/')[1];
        assert.ok(group.segments.includes(segment), `${route.path} is under ${group.segments.join(', ')}`);
      }
    }
  });

  it('keep the one list: every route once, /questions/export before /questions/{questionId}', async () => {
    const routes = await everyRoute(routeGroups());
    const keys = routes.map((route) => `${route.method} ${route.path}`);
    assert.equal(new Set(keys).size, keys.length);
    assert.ok(keys.indexOf('get /questions/export') < keys.indexOf('get /questions/{questionId}'));
    for (const eager of ['get /health', 'get /me', 'post /attempts/{attemptId}/answers', 'post /attempts'])
      assert.ok(keys.includes(eager), eager);
  });
});

describe('mountRouteGroups', () => {
  let server: Server;
  let baseUrl: string;
  const loads: string[] = [];
  const lazy = (name: string, segments: string[], routes: RouteDefinition[]): RouteGroup => ({
    segments,
    load: async () => {
      loads.push(name);
      return routes;
    },
  });

  before(async () => {
    const app = express();
    app.use(
      '/api',
      mountRouteGroups(
        [
          { routes: [answering('get', '/health', 'health')] },
          lazy('things', ['things'], [answering('get', '/things/special', 'special thing')]),
          { routes: [answering('get', '/things/{id}', 'a thing'), answering('post', '/saves', 'saved')] },
          lazy(
            'others',
            ['others', 'things'],
            [answering('get', '/others', 'others'), answering('post', '/things/{id}', 'posted')],
          ),
        ],
        pass,
      ),
    );
    app.use((_req, res) => void res.status(404).json({ answer: 'none' }));
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const call = async (method: string, path: string) => {
    const res = await fetch(`${baseUrl}${path}`, { method });
    return `${res.status} ${((await res.json()) as { answer: string }).answer}`;
  };

  it('answers eager routes without loading any lazy group that the path cannot reach', async () => {
    assert.equal(await call('GET', '/api/health'), '200 health');
    assert.equal(await call('POST', '/api/saves'), '200 saved');
    assert.equal(await call('GET', '/api/nowhere'), '404 none');
    assert.deepEqual(loads, []);
  });

  it('matches in the list order across groups, loading a group once on its first request', async () => {
    assert.equal(await call('GET', '/api/things/special'), '200 special thing');
    assert.equal(await call('GET', '/api/THINGS/special'), '200 special thing');
    assert.equal(await call('GET', '/api/things/7'), '200 a thing');
    assert.deepEqual(loads, ['things']);
    assert.equal(await call('POST', '/api/things/7'), '200 posted');
    assert.equal(await call('DELETE', '/api/things/7'), '404 none');
    assert.equal(await call('GET', '/api/others'), '200 others');
    assert.deepEqual(loads, ['things', 'others']);
  });
});
