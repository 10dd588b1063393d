import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import firebaseFunctionsTest from 'firebase-functions-test';
import { PROJECT_ID } from '../support/env';

// What `firebase deploy` will create, read from the function definition offline.
describe('the exported api function', () => {
  // The emulators' project: this process also calls the service in-process (test/users/service.test.ts).
  const testEnv = firebaseFunctionsTest({ projectId: PROJECT_ID });
  after(() => testEnv.cleanup());

  it('is one 2nd-gen HTTPS function in us-central1, capped at MAX_INSTANCES instances, where Hosting rewrites /api/**', async () => {
    const { api } = await import('../../functions/src/index');
    const endpoint = (api as unknown as { __endpoint: Record<string, any> }).__endpoint;
    assert.equal(endpoint.platform, 'gcfv2');
    assert.ok(endpoint.httpsTrigger, 'an HTTPS trigger');
    assert.deepEqual(endpoint.region, ['us-central1']);
    // Params, so each deployment sets its own cost ceiling and what it keeps warm before a sitting:
    // 80 requests at once per instance, none kept warm and at most 20 instances unless set.
    assert.match(JSON.stringify(endpoint.concurrency), /CONCURRENCY/);
    assert.match(JSON.stringify(endpoint.minInstances), /MIN_INSTANCES/);
    assert.match(JSON.stringify(endpoint.maxInstances), /MAX_INSTANCES/);
    const { params } = await import('../../functions/src/config');
    const defaults = Object.fromEntries(
      [params.concurrency, params.minInstances, params.maxInstances].map((p) => [p.name, p.options.default]),
    );
    assert.deepEqual(defaults, { CONCURRENCY: 80, MIN_INSTANCES: 0, MAX_INSTANCES: 20 });
    const config = JSON.parse(readFileSync(join(__dirname, '..', '..', 'firebase.json'), 'utf8'));
    const rewrite = config.hosting.rewrites.find((r: { source: string }) => r.source === '/api/**');
    assert.deepEqual(rewrite.function, { functionId: 'api', region: endpoint.region[0] });
    assert.equal(config.functions[0].runtime, 'nodejs22');
  });

  it('delivers the outbox with a Firestore trigger on every event and a runner every minute', async () => {
    const { fanOutEvent, deliverDue } = await import('../../functions/src/index');
    const trigger = (fanOutEvent as unknown as { __endpoint: Record<string, any> }).__endpoint;
    assert.equal(trigger.platform, 'gcfv2');
    assert.equal(trigger.eventTrigger.eventType, 'google.cloud.firestore.document.v1.created');
    assert.deepEqual(trigger.eventTrigger.eventFilterPathPatterns, { document: 'clients/{clientId}/events/{eventId}' });
    // Not retried by the platform: the runner fans out any event left without deliveries.
    assert.equal(trigger.eventTrigger.retry, false);
    const runner = (deliverDue as unknown as { __endpoint: Record<string, any> }).__endpoint;
    assert.equal(runner.scheduleTrigger.schedule, 'every 1 minutes');
  });
});
