import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import * as functionsFramework from '@google-cloud/functions-framework';
import { getTestServer } from '@google-cloud/functions-framework/testing';
import { api } from '../../functions/src/index';

// A cold instance of the api function: a fresh process that loads the function's
// module and serves it through the Functions Framework, as production does. It
// answers its port over IPC, then, when asked, the files it has loaded so far.

functionsFramework.http('api', api as unknown as functionsFramework.HttpFunction);
const server = getTestServer('api') as unknown as Server;
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('message', (message) => {
  if (message === 'loaded') process.send?.({ loaded: Object.keys(require.cache) });
});
process.on('disconnect', () => process.exit(0));
