import './env';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { createApp } from '../../functions/src/app';
import type { RuntimeConfig } from '../../functions/src/config';
import { captureLog } from '../../functions/src/platform/log';

// A second instance of the function: the real app in a process of its own,
// started by apiInstances.ts. Its in-instance queues are its own, as another
// Cloud Functions instance's would be. It answers its port over IPC.

const config = JSON.parse(process.env.API_INSTANCE_CONFIG ?? '{}') as RuntimeConfig;
// Its log stays out of the test report, as the first instance's does.
captureLog(() => undefined);
const server = createServer(createApp(config));
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('disconnect', () => process.exit(0));
