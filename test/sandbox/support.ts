import { request as httpRequest } from 'node:http';
import { afterEach, beforeEach } from 'vitest';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.js';

// Helpers of the sandbox tests: a sandbox per test, a small JSON client over real HTTP, and valid invoices.

/** Starts a fresh sandbox before each test of the file and closes it after. */
export function useSandbox(options: SandboxOptions = {}): () => RunningSandbox {
  let sandbox: RunningSandbox | undefined;
  beforeEach(async () => {
    sandbox = await startSandbox(options);
  });
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });
  return () => {
    if (!sandbox) throw new Error('The sandbox is not running');
    return sandbox;
  };
}

export interface JsonResponse<T = unknown> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

/** Calls the sandbox with `fetch`; JSON bodies are sent as application/json, the token unless `token: null`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever JSON the sandbox answers
export async function call<T = any>(
  sandbox: RunningSandbox,
  method: string,
  path: string,
  options: { body?: unknown; token?: string | null; headers?: Record<string, string> } = {},
): Promise<JsonResponse<T>> {
  const token = options.token === undefined ? sandbox.token : options.token;
  const headers: Record<string, string> = {
    ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    ...options.headers,
  };
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: the test reads `text`.
  }
  return { status: response.status, headers: response.headers, text, body: body as T };
}

/** A raw HTTP exchange, for what `fetch` will not send; resolves with the status or the socket error's code. */
export function rawRequest(
  sandbox: RunningSandbox,
  options: { method: string; path: string; headers?: Record<string, string | number>; body?: string | Buffer },
): Promise<{ status?: number; headers?: Record<string, unknown>; body: string; error?: string }> {
  return new Promise((resolve) => {
    const req = httpRequest(`${sandbox.url}${options.path}`, { method: options.method, headers: options.headers });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
      res.on('error', (error: NodeJS.ErrnoException) =>
        resolve({ status: res.statusCode, headers: res.headers, body, error: error.code }),
      );
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ body: '', error: error.code ?? error.message }));
    req.end(options.body);
  });
}

/** An ISO instant `days` from now (negative: in the past), in the exact shape the schemas want. */
export function isoIn(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString();
}

/** A valid single invoice, released a minute ago and expiring in 10 days. */
export function singleInvoice(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    customer: { name: 'Test Customer', email: 'customer@example.com', mobile: '+201000000001' },
    amount: 1250,
    sendingDate: isoIn(0).slice(0, 10),
    expiryDate: isoIn(10),
    releaseDate: new Date(Date.now() - 60_000).toISOString(),
    note: 'Test order',
    ...overrides,
  };
}

/** A valid recurring invoice, released a minute ago and expiring in 10 days. */
export function recurringInvoice(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    cycleType: 'MONTH',
    cycleValue: 1,
    ...singleInvoice(),
    discount: { value: 0, type: 'FLAT' },
    ...overrides,
  };
}

/** Creates an invoice and returns its number, failing unless the sandbox answers 201. */
export async function createInvoice(
  sandbox: RunningSandbox,
  kind: 'single' | 'recurring',
  body: Record<string, unknown>,
): Promise<string> {
  const response = await call(sandbox, 'POST', `/invoice-api/invoices/${kind}`, { body });
  if (response.status !== 201) throw new Error(`Create answered ${response.status}: ${response.text}`);
  return response.text;
}
