import { request } from 'node:http';
import './observed-statuses.js';

export interface HttpResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  /** The parsed JSON body (undefined when the body is not JSON). */
  readonly body: any;
}

export interface HttpRequest {
  readonly method?: string;
  /** An object is sent as JSON; a string or Buffer is sent as is. */
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

/** A raw HTTP client over node:http, so tests control every header (or its absence). */
export function http(baseUrl: string, path: string, options: HttpRequest = {}): Promise<HttpResponse> {
  const payload =
    options.body === undefined ? undefined : typeof options.body === 'string' || Buffer.isBuffer(options.body) ? options.body : JSON.stringify(options.body);
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, baseUrl), { method: options.method ?? 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
      });
    });
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

export const postJson = (baseUrl: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  http(baseUrl, path, { body, headers: { 'content-type': 'application/json', ...headers } });
