import assert from 'node:assert/strict';
import { createTenant } from '../support/fixtures';
import { get } from '../support/http';

describe('GET /api/me (harness smoke)', () => {
  it('answers a Client Admin with its role and organization', async () => {
    const { admin, clientId } = await createTenant();
    const res = await get('/api/me', { token: admin.token });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      uid: admin.uid,
      email: admin.email,
      role: 'client_admin',
      client_id: clientId,
      guest: false,
      accommodation: null,
    });
  });
});
