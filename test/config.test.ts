import assert from 'node:assert/strict';
import { params, readConfig } from '../functions/src/config';

// Outside the Firebase CLI nothing writes a param's default into the environment:
// each param must still read as the default it documents.
describe('config params', () => {
  const all = Object.values(params);
  let saved: Record<string, string | undefined>;
  beforeEach(() => {
    saved = Object.fromEntries(all.map((p) => [p.name, process.env[p.name]]));
  });
  afterEach(() => {
    for (const [name, value] of Object.entries(saved))
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
  });
  const unsetAll = () => all.forEach((p) => delete process.env[p.name]);

  it('reads every param as its documented default when its variable is not set', () => {
    unsetAll();
    for (const param of all) assert.deepEqual(param.value(), param.options.default, param.name);
  });

  it('reads a param set to an empty string as its default', () => {
    unsetAll();
    process.env.RATE_LIMIT_PER_MINUTE = '';
    process.env.CORS_ORIGINS = ' ';
    assert.equal(params.ratePerMinute.value(), 100);
    assert.deepEqual(params.corsOrigins.value(), []);
  });

  it('reads a param that is set as its value, not the default', () => {
    unsetAll();
    Object.assign(process.env, {
      RATE_LIMIT_PER_MINUTE: '7',
      TRUSTED_PROXY_HOPS: '0',
      CORS_ORIGINS: '["https://exam.example"]',
      EXPOSE_COST_HEADER: 'true',
    });
    assert.equal(params.ratePerMinute.value(), 7);
    assert.equal(params.trustedProxyHops.value(), 0);
    assert.deepEqual(params.corsOrigins.value(), ['https://exam.example']);
    assert.equal(params.exposeCostHeader.value(), true);
  });

  it('builds the runtime config from the defaults with nothing set', () => {
    unsetAll();
    assert.deepEqual(readConfig(), {
      ratePerMinute: 100,
      sensitivePerMinute: 10,
      authFailuresPerMinute: 10,
      authFailuresPerNetworkAddressPerMinute: 200,
      trustedProxyHops: 1,
      trustedProxyRanges: [],
      corsOrigins: [],
      maxJsonBodyBytes: 256 * 1024,
      exposeCostHeader: false,
    });
  });
});
