import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import * as functionsFramework from '@google-cloud/functions-framework';
import { getTestServer } from '@google-cloud/functions-framework/testing';
import { createApp } from '../../functions/src/app';
import { deferFrameworkBodyErrors } from '../../functions/src/platform/frameworkBodyParser';
import type { RuntimeConfig } from '../../functions/src/config';
import { captureLog, type LogEntry } from '../../functions/src/platform/log';

// The real Express app, served from this process against the real emulators.
// Requests to it truly overlap (the Functions emulator runs one at a time per
// worker), and a test can make Firestore or Auth fail underneath it.

/** The limits of `functions/.env.demo-exam-test`, so in-process answers match the emulator's. */
export const TEST_CONFIG: RuntimeConfig = {
  ratePerMinute: 100,
  sensitivePerMinute: 10,
  authFailuresPerMinute: 10,
  authFailuresPerNetworkAddressPerMinute: 200,
  trustedProxyHops: 1,
  trustedProxyRanges: [],
  corsOrigins: [],
  maxJsonBodyBytes: 256 * 1024,
  exposeCostHeader: false,
};

export interface InProcessApi {
  baseUrl: string;
  /** What the service logged while this server ran (kept here, so the test report stays a report). */
  logs: LogEntry[];
  close(): Promise<void>;
}

export interface ServeOptions {
  /**
   * Serve through the real Functions Framework, as production does: its body parsers
   * (json, text, urlencoded, raw) read the body before the app, as functions/src/index.ts arranges.
   */
  framework?: boolean;
}

let frameworkApps = 0;

function frameworkServer(app: ReturnType<typeof createApp>): Server {
  deferFrameworkBodyErrors();
  const name = `api-in-process-${(frameworkApps += 1)}`;
  functionsFramework.http(name, app);
  return getTestServer(name) as unknown as Server;
}

export async function startInProcessApi(
  overrides: Partial<RuntimeConfig> = {},
  serve: ServeOptions = {},
): Promise<InProcessApi> {
  const app = createApp({ ...TEST_CONFIG, ...overrides });
  const server = serve.framework ? frameworkServer(app) : createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const logs: LogEntry[] = [];
  const release = captureLog((entry) => logs.push(entry));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    logs,
    close: () =>
      new Promise((resolve) =>
        server.close(() => {
          release();
          resolve();
        }),
      ),
  };
}
