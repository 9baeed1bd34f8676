import { HTTPError, TimeoutError, type RequestError } from 'got';
import { ServiceRejectedError, ServiceUnavailableError, type FieldIssue } from '../errors.js';
import { lenientServiceErrorSchema, serviceErrorCodes } from '../schemas/service-error.js';

/** Network errors that prove the request never reached the service, so sending it again is safe. */
const neverSentCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ERR_INVALID_URL',
]);

const reasons: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'the connection was dropped',
  EPIPE: 'the connection was dropped',
  ETIMEDOUT: 'no answer in time',
};

/** Turns a got error (other than a 401) into the typed error of what happened. */
export function toServiceError(error: RequestError): ServiceRejectedError | ServiceUnavailableError {
  const target = error.options?.url ? new URL(String(error.options.url)).origin : 'the service';
  if (error instanceof HTTPError) {
    const status = error.response.statusCode;
    const retryAfterMs = retryAfter(error.response.headers['retry-after']);
    if (status >= 500 || status === 429 || status === 408) {
      return new ServiceUnavailableError(
        `The service at ${target} is unavailable (HTTP ${status}${describeBody(error.response.body as string) ? `: ${describeBody(error.response.body as string)}` : ''}).`,
        { mayHaveReachedService: true, status, retryAfterMs, hint: 'Try again later; --verbose shows each request.' },
      );
    }
    return rejection(status, error.response.body as string);
  }
  if (error instanceof TimeoutError) {
    return new ServiceUnavailableError(`The service at ${target} did not answer in time.`, {
      mayHaveReachedService: true,
      hint: 'Raise the limit with --timeout SECONDS, or try again later.',
      cause: error,
    });
  }
  const code = error.code;
  return new ServiceUnavailableError(
    `Cannot reach the service at ${target}: ${reasons[code] ?? code ?? error.message}.`,
    {
      mayHaveReachedService: !neverSentCodes.has(code),
      hint: 'Check the base URL of the environment (einvoice config show) and your network.',
      cause: error,
    },
  );
}

/** The service's refusal, with its message and field errors when its body carries them. */
function rejection(status: number, body: string): ServiceRejectedError {
  const parsed = parseErrorBody(body);
  const issues: FieldIssue[] = (parsed?.errors ?? []).map((entry) => ({
    path: entry.field ?? entry.path ?? '(request)',
    message: entry.message ?? 'is invalid',
  }));
  const message = parsed?.message ?? parsed?.error ?? describeBody(body) ?? `HTTP ${status}`;
  const isDuplicate = parsed?.code === serviceErrorCodes.duplicateInvoice;
  return new ServiceRejectedError(`The service rejected the request (HTTP ${status}): ${message}`, {
    status,
    code: parsed?.code,
    issues,
    existingInvoiceNumber:
      isDuplicate && parsed?.invoiceNumber !== undefined ? String(parsed.invoiceNumber) : undefined,
  });
}

function parseErrorBody(body: string) {
  try {
    const result = lenientServiceErrorSchema.safeParse(JSON.parse(body));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}

/** A short, one-line rendering of a body that is not JSON (an HTML error page, plain text). */
function describeBody(body: string | undefined): string | undefined {
  if (!body) return undefined;
  const parsed = parseErrorBody(body);
  if (parsed?.message) return parsed.message;
  const text = body
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!text) return undefined;
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

function retryAfter(header: string | undefined): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
