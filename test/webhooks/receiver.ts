import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

// A webhook receiver as a customer would write it: a local HTTP server that
// verifies every request with the standardwebhooks library (the root's, not
// the service's), and answers what the test tells it to.

export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** Which of the receiver's secrets verified it (indexes into `secrets`); [] when none did. */
  verifiedWith: number[];
  status: number;
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Every message id answered 2xx, in order (a repeat here is a duplicate delivery). */
  accepted: string[];
  secrets: string[];
  /** Requests that arrived, answered or not yet. */
  arrived(): number;
  close(): Promise<void>;
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
}

/** `respond(n)`: the status for the n-th request (0-based), or a delay then status. */
export async function startReceiver(
  respond: (
    n: number,
    req: IncomingMessage,
  ) => number | { status: number; delayMs?: number; headers?: Record<string, string> } = () => 204,
): Promise<Receiver> {
  const received: Received[] = [];
  const accepted: string[] = [];
  const secrets: string[] = [];
  let count = 0;
  let arrived = 0;
  const server: Server = createServer((req, res) => {
    arrived += 1;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(req.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
      };
      const verifiedWith = secrets.flatMap((secret, i) => {
        try {
          new Webhook(secret).verify(body, headers);
          return [i];
        } catch {
          return [];
        }
      });
      const answer = respond(count++, req);
      const { status, delayMs = 0, headers: extra = {} } = typeof answer === 'number' ? { status: answer } : answer;
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      const entry: Received = {
        id: headers['webhook-id'],
        timestamp: headers['webhook-timestamp'],
        signature: headers['webhook-signature'],
        body,
        verifiedWith,
        status,
        at: Date.now(),
      };
      received.push(entry);
      if (status >= 200 && status < 300 && !res.destroyed) accepted.push(entry.id);
      if (!res.destroyed) {
        res.writeHead(status, extra);
        res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    accepted,
    secrets,
    arrived: () => arrived,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    async waitFor(n, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      while (received.length < n && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      return received;
    },
  };
}
