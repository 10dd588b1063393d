import { randomBytes } from 'node:crypto';
import { BASE_URL } from './env';
import type { ApiResponse } from './http';
import { freshIp } from './http';

// multipart/form-data bodies built by hand, byte for byte, as a browser or
// `curl -F file=@questions.csv` sends them (and broken ones a test needs).

export interface FilePart {
  /** The form field name; the import wants "file". */
  field: string;
  filename?: string;
  contentType?: string;
  content: string | Buffer;
}

export interface Multipart {
  body: Buffer;
  contentType: string;
}

export function multipartBody(
  parts: FilePart[],
  boundary = `----exam-test-${randomBytes(8).toString('hex')}`,
): Multipart {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.field}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    const headers = [`Content-Disposition: ${disposition}`];
    if (part.filename !== undefined || part.contentType)
      headers.push(`Content-Type: ${part.contentType ?? 'text/csv'}`);
    chunks.push(Buffer.from(`--${boundary}\r\n${headers.join('\r\n')}\r\n\r\n`, 'utf8'));
    chunks.push(Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content, 'utf8'));
    chunks.push(Buffer.from('\r\n', 'utf8'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** One CSV file in the part named "file", as the import expects. */
export const csvUpload = (csv: string | Buffer, filename = 'questions.csv'): Multipart =>
  multipartBody([{ field: 'file', filename, contentType: 'text/csv', content: csv }]);

export interface UploadOptions {
  token?: string;
  ip?: string;
  baseUrl?: string;
  /** Overrides the multipart content type (e.g. to send a wrong one). */
  contentType?: string;
}

/** POSTs raw bytes (a multipart body, or anything else a test needs to send). */
export async function postBytes(
  path: string,
  body: Buffer,
  contentType: string | undefined,
  options: UploadOptions = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { 'X-Forwarded-For': options.ip ?? freshIp() };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (contentType) headers['Content-Type'] = contentType;
  const res = await fetch(`${options.baseUrl ?? BASE_URL}${path}`, {
    method: 'POST',
    headers,
    body: new Uint8Array(body),
  });
  const text = await res.text();
  let parsed: any;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** POST /api/questions/import with one CSV file. */
export function importCsv(
  csv: string | Buffer | Multipart,
  options: UploadOptions & { query?: string } = {},
): Promise<ApiResponse> {
  const upload = typeof csv === 'string' || Buffer.isBuffer(csv) ? csvUpload(csv) : csv;
  return postBytes(
    `/api/questions/import${options.query ? `?${options.query}` : ''}`,
    upload.body,
    options.contentType ?? upload.contentType,
    options,
  );
}
