import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import type { RuntimeConfig } from '../../functions/src/config';
import { startInProcessApi, TEST_CONFIG, type InProcessApi } from './inProcessApi';

// Two instances of the function, as production runs it under load: this
// process's (its logs kept, its faults injectable) and one in a child process.
// Within an instance, the transactions on one attempt wait their turn
// (functions/src/attempts/attemptGate.ts); across instances they truly overlap,
// so only the transaction itself holds a guarantee there. A test spreading its
// requests over both proves the transaction, not the queue.

export interface ApiInstances {
  first: InProcessApi;
  /** Each instance's base URL in turn. */
  nextBaseUrl(): string;
  close(): Promise<void>;
}

async function startChild(overrides: Partial<RuntimeConfig>): Promise<{ baseUrl: string; child: ChildProcess }> {
  const child = fork(path.join(__dirname, 'apiInstanceMain.ts'), {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, API_INSTANCE_CONFIG: JSON.stringify({ ...TEST_CONFIG, ...overrides }) },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const [message] = (await Promise.race([once(child, 'message'), once(child, 'exit')])) as [{ port: number }];
  if (!message?.port) throw new Error('The second API instance did not start');
  return { baseUrl: `http://127.0.0.1:${message.port}`, child };
}

export async function startApiInstances(overrides: Partial<RuntimeConfig> = {}): Promise<ApiInstances> {
  const [first, second] = await Promise.all([startInProcessApi(overrides), startChild(overrides)]);
  const baseUrls = [first.baseUrl, second.baseUrl];
  let turn = 0;
  return {
    first,
    nextBaseUrl: () => baseUrls[turn++ % baseUrls.length],
    close: async () => {
      const exited = once(second.child, 'exit');
      second.child.disconnect();
      await Promise.all([first.close(), exited]);
    },
  };
}
