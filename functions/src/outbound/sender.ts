import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { addressAllowed, checkOutboundUrl, type ReachPolicy, type UrlProblem } from './addressGuard';
import { loopbackPolicy } from './loopback';

// The one way the backend calls out (a webhook's receiver, an LTI platform):
// the URL checked, the address it connects to checked at connect time (a name
// that resolves to a private address, even one that changed since it was
// checked, is refused before a byte is sent), a time bound, no redirect
// followed, a bound on the bytes of the answer read. Each caller words the
// outcome its own way.

/**
 * How long one call may take: until its whole answer is read when the body counts (an LTI
 * platform's token, its scores reply), until its status arrives when only that counts (a webhook).
 */
export const SEND_TIMEOUT_MS = 15_000;
/** The most of an answer's body read (when it is read at all). */
export const MAX_RESPONSE_BYTES = 64 * 1024;

export interface OutboundRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

export interface OutboundOptions {
  timeoutMs?: number;
  maxBytes?: number;
  /**
   * 'body' (the default): the answer is read whole within the time bound, one past maxBytes is a failure.
   * 'status': only the status counts: the answer is taken when its status and headers arrive, and
   * the connection is closed then, no byte of its body read (one that trickles holds nothing up).
   */
  read?: 'body' | 'status';
  /** Where the call may go; by default the deployment's (ALLOW_LOOPBACK_URLS). */
  policy?: ReachPolicy;
}

/** An answer, any status (a 3xx is an answer: its location is in the headers, never followed). */
export interface OutboundReply {
  status: number;
  headers: Headers;
  body: string;
  ms: number;
}

export interface OutboundFailure {
  status: null;
  /**
   * Why there was no answer: the address refused, no answer in time (no whole one when the body
   * is read, no status when only it counts), an answer past maxBytes, the network.
   */
  failure: 'refused' | 'timeout' | 'too_large' | 'network';
  /** A refused URL's problem (a refused address at connect time has none). */
  problem?: UrlProblem;
  /** What went wrong, unworded: the URL check's message, the refused address, the network's error. */
  detail: string;
  /** The network error's code (ECONNREFUSED …), when it has one. */
  code?: string;
  ms: number;
}

export class RefusedAddress extends Error {}

/** dns.lookup, with every address it finds checked: any refused one refuses the name. */
export function guardedLookup(policy: ReachPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, found) => {
      if (err) return callback(err, '', 4);
      const addresses = found as LookupAddress[];
      const refused = addresses.find((a) => !addressAllowed(a.address, policy));
      if (refused || addresses.length === 0)
        return callback(
          new RefusedAddress(`${hostname} resolves to ${refused?.address ?? 'nothing'}, not a public address`),
          '',
          4,
        );
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

const headersOf = (raw: http.IncomingHttpHeaders): Headers => {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw))
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
  return headers;
};

/** One call: its answer, or why there was none. Never throws. */
export function sendOnce(
  urlText: string,
  request: OutboundRequest,
  options: OutboundOptions = {},
): Promise<OutboundReply | OutboundFailure> {
  const started = Date.now();
  const ms = () => Date.now() - started;
  const policy = options.policy ?? loopbackPolicy();
  const timeoutMs = options.timeoutMs ?? SEND_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? MAX_RESPONSE_BYTES;
  const keepBody = (options.read ?? 'body') === 'body';
  // Checked where it was registered too; checked again, as the policy may differ here (an address literal is never looked up).
  const verdict = checkOutboundUrl(urlText, policy);
  if (!verdict.ok)
    return Promise.resolve({
      status: null,
      failure: 'refused',
      problem: verdict.problem,
      detail: verdict.message,
      ms: ms(),
    });
  const url = verdict.url;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: OutboundReply | OutboundFailure) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outgoing.destroy();
      resolve(result);
    };
    const outgoing = client.request(
      url,
      {
        method: request.method,
        agent: false,
        lookup: guardedLookup(policy),
        headers: {
          ...request.headers,
          ...(request.body !== undefined ? { 'content-length': Buffer.byteLength(request.body) } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const answer = () =>
          finish({
            status: response.statusCode ?? 0,
            headers: headersOf(response.headers),
            body: Buffer.concat(chunks).toString('utf8'),
            ms: ms(),
          });
        if (!keepBody) {
          // The status is what counts, and it is here: the answer is taken now and the
          // connection closed (finish), whatever the body would have been or however slowly.
          answer();
          response.destroy();
          return;
        }
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes)
            return finish({
              status: null,
              failure: 'too_large',
              detail: `The answer passed ${maxBytes} bytes`,
              ms: ms(),
            });
          chunks.push(chunk);
        });
        response.on('end', answer);
        response.on('error', (err) => finish({ status: null, failure: 'network', detail: err.message, ms: ms() }));
      },
    );
    const timer = setTimeout(
      () => finish({ status: null, failure: 'timeout', detail: `No answer within ${timeoutMs / 1000} s`, ms: ms() }),
      timeoutMs,
    );
    outgoing.on('error', (err) =>
      finish({
        status: null,
        failure: err instanceof RefusedAddress ? 'refused' : 'network',
        detail: err.message,
        ...((err as { code?: string }).code !== undefined ? { code: (err as { code?: string }).code } : {}),
        ms: ms(),
      }),
    );
    outgoing.end(request.body);
  });
}
