import { randomBytes } from 'node:crypto';
import { BASE_URL } from './env';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** X-Debug-Cost's figures by name (reads, round_trips, …): the emulator runs the API with EXPOSE_COST_HEADER. */
export function debugCost(res: ApiResponse): Record<string, number> {
  return Object.fromEntries(
    (res.headers.get('x-debug-cost') ?? '')
      .split(';')
      .map((part) => part.trim().split('='))
      .map(([k, v]) => [k, Number(v)]),
  );
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Sent as-is, with no JSON encoding. */
  rawBody?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** The caller's address, as the trusted front end would append it to X-Forwarded-For. */
  ip?: string;
  /** Another server than the Hosting emulator, e.g. the app served in-process (support/inProcessApi). */
  baseUrl?: string;
}

/**
 * A fresh documentation-range IPv6 address in a /64 of its own (the service
 * counts a /64 as one caller): each test can be its own caller for the rate limits.
 */
export const freshIp = (): string =>
  `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::${randomBytes(2).toString('hex')}`;

// Requests without an explicit ip share one per test process, so a run starts with a clean bucket.
const defaultIp = freshIp();

export async function api<T = any>(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { 'X-Forwarded-For': options.ip ?? defaultIp, ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) {
    body = options.rawBody;
    if (options.contentType) headers['Content-Type'] = options.contentType;
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] = options.contentType ?? 'application/json';
  }
  const res = await fetch(`${options.baseUrl ?? BASE_URL}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: any;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

export const get = <T = any>(path: string, o?: RequestOptions) => api<T>('GET', path, o);
export const post = <T = any>(path: string, body?: unknown, o?: RequestOptions) => api<T>('POST', path, { ...o, body });
export const patch = <T = any>(path: string, body?: unknown, o?: RequestOptions) =>
  api<T>('PATCH', path, { ...o, body });
export const del = <T = any>(path: string, o?: RequestOptions) => api<T>('DELETE', path, o);
