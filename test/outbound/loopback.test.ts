import assert from 'node:assert/strict';
import { platformUrlProblem } from '../../functions/src/lti/schemas';
import { platformRequest } from '../../functions/src/lti/platformHttp';
import { loopbackPolicy } from '../../functions/src/outbound/loopback';
import { sendOnce } from '../../functions/src/outbound/sender';
import { postOnce } from '../../functions/src/webhooks/sender';

// One loopback policy, read from the one param ALLOW_LOOPBACK_URLS, decides for
// every outbound caller: a webhook's delivery, an LTI platform's registration
// and its requests. Port 9 on loopback: nothing listens, so an allowed call
// fails to connect, a refused one is refused before it tries.

const LOOPBACK_URL = 'http://127.0.0.1:9/x';

async function withParam<T>(value: string | undefined, fn: () => Promise<T>): Promise<T> {
  const saved = process.env.ALLOW_LOOPBACK_URLS;
  if (value === undefined) delete process.env.ALLOW_LOOPBACK_URLS;
  else process.env.ALLOW_LOOPBACK_URLS = value;
  try {
    return await fn();
  } finally {
    if (saved === undefined) delete process.env.ALLOW_LOOPBACK_URLS;
    else process.env.ALLOW_LOOPBACK_URLS = saved;
  }
}

/** What each caller decides for a loopback URL: allowed (true) or refused (false). */
async function decisions() {
  const policy = loopbackPolicy();
  const webhook = await postOnce(LOOPBACK_URL, {}, '{}', policy, { timeoutMs: 2_000 });
  const platform = await platformRequest(LOOPBACK_URL, { method: 'GET', headers: {} }, { timeoutMs: 2_000 });
  const sent = await sendOnce(LOOPBACK_URL, { method: 'GET', headers: {} }, { timeoutMs: 2_000 });
  return {
    policy: policy.allowLoopback,
    webhookDelivery: !(webhook.error ?? '').startsWith('Refused'),
    ltiRegistration: platformUrlProblem(LOOPBACK_URL) === null,
    ltiRequest: !(platform.status === null && platform.failure === 'refused'),
    sender: !(sent.status === null && sent.failure === 'refused'),
  };
}

describe('outbound loopback policy: one param decides for webhooks and LTI', () => {
  const cases: Array<[string, string | undefined, boolean]> = [
    ['ALLOW_LOOPBACK_URLS=true (the emulators’ .env files)', 'true', true],
    ['ALLOW_LOOPBACK_URLS=false', 'false', false],
    ['ALLOW_LOOPBACK_URLS unset (production’s default)', undefined, false],
    ['ALLOW_LOOPBACK_URLS empty', '', false],
  ];
  for (const [name, value, allowed] of cases)
    it(`${name}: loopback ${allowed ? 'allowed' : 'refused'} everywhere`, async () => {
      assert.deepEqual(await withParam(value, decisions), {
        policy: allowed,
        webhookDelivery: allowed,
        ltiRegistration: allowed,
        ltiRequest: allowed,
        sender: allowed,
      });
    });

  it('is read at each call, not once: the Firestore emulator alone no longer allows loopback', async () => {
    const saved = process.env.FIRESTORE_EMULATOR_HOST;
    process.env.FIRESTORE_EMULATOR_HOST = '127.0.0.1:8080';
    try {
      assert.equal((await withParam('false', decisions)).ltiRegistration, false);
      assert.equal((await withParam('true', decisions)).ltiRegistration, true);
    } finally {
      if (saved === undefined) delete process.env.FIRESTORE_EMULATOR_HOST;
      else process.env.FIRESTORE_EMULATOR_HOST = saved;
    }
  });
});
