import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import express from 'express';
// The same zod the functions use (the root's is another major version).
import { z } from '../../functions/node_modules/zod';
import type { Principal } from '../../functions/src/auth/principal';
import { errorHandler } from '../../functions/src/http/errorHandler';
import { defineRoute, mountRoutes, type Guards } from '../../functions/src/http/route';
import { loggedDuring } from '../support/faults';

// defineRoute's reply path on its own: a tiny app with the real mountRoutes and
// error handler, and guards that let everyone in as a fixed principal.
const caller: Principal = { uid: 'u1', email: null, role: 'client_admin', clientId: 'acme', guest: false, authTime: 0 };
const openGuards: Guards = {
  countRequest: (_req, _res, next) => next(),
  authenticate: () => (_req, res, next) => {
    res.locals.principal = caller;
    next();
  },
  sensitive: (_req, _res, next) => next(),
  runHandler: (_res, work) => work,
  beforeHandler: async () => undefined,
  countRefusedCredential: async () => undefined,
  countIdentified: (_req, _res, next) => next(),
};

const Question = z.object({ id: z.string(), question_text: z.string() });
const routes = [
  defineRoute({
    method: 'get',
    path: '/leaky',
    summary: 'A handler that returns more than its schema names',
    tag: 'Test',
    access: ['client_admin'],
    success: { status: 200, description: 'ok', schema: Question },
    handler: async () => ({
      status: 200,
      body: { id: 'q1', question_text: 'What is 2 + 2?', correct_answer: '4', token_hash: 'abc' },
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/wrong',
    summary: 'A handler whose reply does not fit its schema',
    tag: 'Test',
    access: ['client_admin'],
    success: { status: 200, description: 'ok', schema: Question },
    handler: async () => ({ status: 200, body: { id: 7 } }),
  }),
];

describe('defineRoute: replies pass through their schema', () => {
  let server: Server;
  let base: string;
  before(async () => {
    const app = express();
    app.use('/api', mountRoutes(routes, openGuards));
    app.use(errorHandler);
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('strips fields the schema does not name, such as an answer key or a token hash', async () => {
    const res = await fetch(`${base}/api/leaky`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { id: 'q1', question_text: 'What is 2 + 2?' });
  });

  it('answers 500 SERVER_ERROR, and logs it, rather than send a reply that does not fit', async () => {
    const { result, entries } = await loggedDuring(async () => {
      const res = await fetch(`${base}/api/wrong`);
      return { status: res.status, body: await res.json() };
    });
    assert.equal(result.status, 500);
    assert.equal(result.body.error, 'SERVER_ERROR');
    assert.ok(!JSON.stringify(result.body).includes('7'), 'nothing of the bad reply leaks');
    assert.ok(entries.some((e) => e.severity === 'ERROR' && /does not match its schema/.test(e.message)));
  });
});
