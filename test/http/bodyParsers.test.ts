import { expectError } from '../support/assertions';
import { api, freshIp } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { expectNoInternals, UNREADABLE_BODIES, type BodyCase } from '../support/unreadableBodies';

// Every error of every body parser is the documented JSON error body, never the
// platform's HTML page, never a 500, never a stack or a file path. Production runs
// the Functions Framework, which parses json, text, urlencoded and then any other
// type (raw) before the app; the Functions emulator mounts the same four parsers.
// So each case goes through the Hosting emulator, and in-process through the real
// Functions Framework; the cases the app's own JSON parser sees also go to the
// app served bare.

const send = (c: BodyCase, baseUrl?: string) =>
  api('POST', '/api/attempts', { rawBody: c.body, headers: c.headers, ip: freshIp(), baseUrl });

describe('Request bodies a parser cannot read: the JSON error body, never HTML, a 500 or a stack', () => {
  let framework: InProcessApi;
  let bare: InProcessApi;
  before(async () => {
    [framework, bare] = await Promise.all([startInProcessApi({}, { framework: true }), startInProcessApi()]);
  });
  after(async () => {
    await Promise.all([framework.close(), bare.close()]);
  });

  for (const c of UNREADABLE_BODIES) {
    it(`${c.status} ${c.code} for ${c.title}, through the Hosting emulator`, async () => {
      const res = await send(c);
      expectError(res, c.status, c.code);
      expectNoInternals(res);
    });

    it(`${c.status} ${c.code} for ${c.title}, in-process through the Functions Framework`, async () => {
      const res = await send(c, framework.baseUrl);
      expectError(res, c.status, c.code);
      expectNoInternals(res);
    });

    if (c.json) {
      it(`${c.status} ${c.code} for ${c.title}, in-process through the app's own JSON parser`, async () => {
        const res = await send(c, bare.baseUrl);
        expectError(res, c.status, c.code);
        expectNoInternals(res);
      });
    }
  }
});
