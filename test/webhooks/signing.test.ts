import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { body, MAX_PAYLOAD_BYTES } from '../../functions/src/webhooks/channel';
import { newSecret, signedHeaders } from '../../functions/src/webhooks/signing';

// Signing checked against the Standard Webhooks specification's own test vector,
// and verified with the root's standardwebhooks library (a receiver's code).

const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

describe('webhook signing', () => {
  it('signs the specification’s test vector exactly', () => {
    const headers = signedHeaders(
      VECTOR.id,
      VECTOR.body,
      [{ secret: VECTOR.secret, expires_at: null }],
      VECTOR.timestamp * 1000,
    );
    assert.deepEqual(headers, {
      'webhook-id': VECTOR.id,
      'webhook-timestamp': String(VECTOR.timestamp),
      'webhook-signature': VECTOR.signature,
    });
  });

  it('puts one signature per signing secret, space-separated, each verifiable; an expired one no longer signs', () => {
    const nowMs = Date.now();
    const [a, b, c] = [newSecret(), newSecret(), newSecret()];
    const headers = signedHeaders(
      'msg_1',
      '{"a":1}',
      [
        { secret: a, expires_at: null },
        { secret: b, expires_at: new Date(nowMs + 3_600_000).toISOString() },
        { secret: c, expires_at: new Date(nowMs - 1).toISOString() },
      ],
      nowMs,
    );
    assert.equal(headers['webhook-signature'].split(' ').length, 2);
    for (const secret of [a, b]) new Webhook(secret).verify('{"a":1}', headers);
    assert.throws(() => new Webhook(c).verify('{"a":1}', headers));
  });

  it('makes secrets of whsec_ + base64 of 32 random bytes', () => {
    const secret = newSecret();
    assert.match(secret, /^whsec_/);
    assert.equal(Buffer.from(secret.slice(6), 'base64').length, 32);
    assert.notEqual(secret, newSecret());
  });
});

describe('webhook body', () => {
  it('is {type, timestamp, data}, and over 256 KB goes without its bulky parts, named in data.omitted', () => {
    const event = { type: 'attempt.submitted' as const, timestamp: '2026-01-01T00:00:00.000Z' };
    assert.deepEqual(JSON.parse(body(event, { attempt_id: 'a', score: 1 })), {
      ...event,
      data: { attempt_id: 'a', score: 1 },
    });
    const huge = body(event, { attempt_id: 'a', score: 1, answers: ['x'.repeat(300_000)], test_details: {} });
    assert.ok(Buffer.byteLength(huge) <= MAX_PAYLOAD_BYTES);
    assert.deepEqual(JSON.parse(huge).data, { attempt_id: 'a', score: 1, omitted: ['test_details', 'answers'] });
  });
});
