import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { apiTypes, SCHEMA_FILE } from '../../web/scripts/api-types.mjs';
import { freshIp, get } from '../support/http';

describe('web app API types', function () {
  this.timeout(60_000);

  it('are exactly what openapi-typescript makes of the served /api/openapi.json (npm --workspace web run api-types rewrites them)', async () => {
    const res = await get('/api/openapi.json', { ip: freshIp() });
    assert.equal(res.status, 200, res.text);
    assert.equal(readFileSync(SCHEMA_FILE, 'utf8'), await apiTypes(res.body));
  });
});
