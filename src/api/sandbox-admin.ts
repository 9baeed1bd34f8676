import got, { HTTPError, RequestError } from 'got';
import type { ZodType } from 'zod';
import { EinvoiceError, ExitCode } from '../errors.js';
import {
  clockResponseSchema,
  outboxResponseSchema,
  resetResponseSchema,
  settleResponseSchema,
} from '../schemas/sandbox-admin.js';
import { validate } from '../schemas/validate.js';
import { toServiceError } from './service-errors.js';

/** Client of the sandbox's admin API (`/__sandbox/...`), which needs no token; replies are checked by the schemas. */
export function createSandboxAdmin(baseUrl: string) {
  // Bodies are read as text, as toServiceError expects of an error's body; a success is parsed here.
  const http = got.extend({
    prefixUrl: baseUrl,
    responseType: 'text',
    retry: { limit: 0 },
    timeout: { request: 30_000 },
  });
  const call = async <T>(schema: ZodType<T>, request: () => Promise<{ body: string }>): Promise<T> => {
    let body: string;
    try {
      body = (await request()).body;
    } catch (error) {
      if (
        error instanceof HTTPError &&
        error.response.statusCode === 404 &&
        parseJson(error.response.body) === undefined
      ) {
        throw new EinvoiceError(`${baseUrl} is not a sandbox: it has no admin API.`, ExitCode.Usage);
      }
      throw error instanceof RequestError ? toServiceError(error) : error;
    }
    const result = validate(schema, parseJson(body));
    if (!result.success) {
      throw new EinvoiceError(`${baseUrl} sent an unexpected reply to a sandbox command.`, ExitCode.Unavailable);
    }
    return result.data;
  };
  const invoicePath = (invoiceNumber: string, action: string) =>
    `__sandbox/invoices/${encodeURIComponent(invoiceNumber)}/${action}`;
  return {
    pay: (invoiceNumber: string) =>
      call(settleResponseSchema, () => http.post(invoicePath(invoiceNumber, 'pay'), { json: {} })),
    cancel: (invoiceNumber: string) =>
      call(settleResponseSchema, () => http.post(invoicePath(invoiceNumber, 'cancel'), { json: {} })),
    clock: () => call(clockResponseSchema, () => http.get('__sandbox/clock')),
    advanceClock: (advance: string) =>
      call(clockResponseSchema, () => http.post('__sandbox/clock', { json: { advance } })),
    outbox: () => call(outboxResponseSchema, () => http.get('__sandbox/outbox')),
    reset: (demo: boolean) => call(resetResponseSchema, () => http.post('__sandbox/reset', { json: { demo } })),
  };
}

function parseJson(body: unknown): unknown {
  try {
    const value: unknown = JSON.parse(String(body));
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}
