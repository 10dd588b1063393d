import assert from 'node:assert/strict';
import { platformUrlProblem } from '../../functions/src/lti/platformHttp';

describe('platformUrlProblem', () => {
  it('accepts an https URL on a public name or address', () => {
    assert.equal(platformUrlProblem('https://lms.example/token', false), null);
    assert.equal(platformUrlProblem('https://8.8.8.8/token', false), null);
  });

  it('refuses http, non-URLs and addresses that are not public, outside the emulators', () => {
    assert.equal(platformUrlProblem('http://lms.example/token', false), 'not https');
    assert.equal(platformUrlProblem('nope', false), 'not a URL');
    for (const url of [
      'https://127.0.0.1/x',
      'https://localhost/x',
      'https://10.0.0.1/x',
      'https://[::1]/x',
      'https://169.254.169.254/x',
    ])
      assert.equal(platformUrlProblem(url, false), 'not a public address', url);
  });

  it('allows loopback over http on the emulators only', () => {
    assert.equal(platformUrlProblem('http://127.0.0.1:9000/token', true), null);
    assert.equal(platformUrlProblem('http://10.0.0.1/x', true), 'not https');
  });
});
