import got, { HTTPError, RequestError } from 'got';
import { EinvoiceError, ExitCode } from '../errors.js';
import { toServiceError } from './service-errors.js';

/** A message the sandbox sent in place of the real service: an SMS or e-mail to a customer or the merchant. */
export interface OutboxMessage {
  to: 'customer' | 'merchant';
  channel: 'SMS' | 'EMAIL';
  address: string;
  lang: string;
  invoiceNumber: string;
  text: string;
  at: string;
}

/** Client of the sandbox's admin API (`/__sandbox/...`), which needs no token. */
export function createSandboxAdmin(baseUrl: string) {
  // Bodies are read as text, as toServiceError expects of an error's body; a success is parsed here.
  const http = got.extend({
    prefixUrl: baseUrl,
    responseType: 'text',
    retry: { limit: 0 },
    timeout: { request: 30_000 },
  });
  const call = async <T>(request: () => Promise<{ body: string }>): Promise<T> => {
    try {
      return JSON.parse((await request()).body) as T;
    } catch (error) {
      if (error instanceof HTTPError && error.response.statusCode === 404 && !isJson(error.response.body)) {
        throw new EinvoiceError(`${baseUrl} is not a sandbox: it has no admin API.`, ExitCode.Usage);
      }
      throw error instanceof RequestError ? toServiceError(error) : error;
    }
  };
  return {
    pay: (invoiceNumber: string) =>
      call<{ invoiceNumber: string; status: string; orderReferenceNumber: string }>(() =>
        http.post(`__sandbox/invoices/${encodeURIComponent(invoiceNumber)}/pay`, { json: {} }),
      ),
    cancel: (invoiceNumber: string) =>
      call<{ invoiceNumber: string; status: string }>(() =>
        http.post(`__sandbox/invoices/${encodeURIComponent(invoiceNumber)}/cancel`, { json: {} }),
      ),
    advanceClock: (advance: string) =>
      call<{ now: string; expired: string[] }>(() => http.post('__sandbox/clock', { json: { advance } })),
    outbox: () => call<{ messages: OutboxMessage[] }>(() => http.get('__sandbox/outbox')),
    reset: (demo: boolean) => call<{ invoices: number }>(() => http.post('__sandbox/reset', { json: { demo } })),
  };
}

function isJson(body: unknown): boolean {
  try {
    const value: unknown = JSON.parse(String(body));
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}
