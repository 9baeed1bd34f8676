import { HTTPError, TimeoutError, type RequestError } from 'got';
import { ServiceRejectedError, ServiceUnavailableError, type FieldIssue } from '../errors.js';
import { lenientServiceErrorSchema, serviceErrorCodes } from '../schemas/service-error.js';
import { redactToken } from './verbose-log.js';

/** Network errors that prove the request never reached the service, so sending it again is safe. */
const neverSentCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ERR_INVALID_URL',
]);

/** Of those, the ones that say the service is out of reach for every request, not only for this one. */
const unreachableCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

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

/** True when the error is the TLS handshake's: a certificate not trusted, expired or for another host. */
function isTlsFailure(error: RequestError): boolean {
  const code = error.code ?? '';
  return (
    /^(ERR_TLS_|ERR_SSL_|CERT_|ERR_OSSL_)/.test(code) ||
    code.includes('CERT') ||
    code.includes('SELF_SIGNED') ||
    code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' ||
    code === 'EPROTO'
  );
}

/** The TLS failure in one line: OpenSSL's own text of a handshake error is a page of internals. */
function tlsReason(error: RequestError): string {
  if (error.code === 'EPROTO') return 'TLS failed (EPROTO): the server did not complete a TLS handshake';
  const text = error.message.split('\n')[0]?.trim();
  return `TLS failed (${error.code}${text ? `: ${text}` : ''})`;
}

/**
 * True once the request may have reached the service: a connection to it was open (for https, with its TLS
 * handshake done), so the request went out on it. A request that failed before (no connection, a TLS refusal, a
 * header that cannot be written) never reached it.
 *
 * got's upload time is not the mark: got writes the body, waits a turn of the event loop, and only then ends the
 * request and records it as sent. With a Content-Length the service has the whole request once the body is
 * written, so it may act on it and drop the connection before got has ended it.
 */
export function requestMayHaveReached(error: RequestError): boolean {
  const timings = error.timings;
  if (!timings) return false;
  if (timings.upload !== undefined) return true;
  const https = error.options?.url ? new URL(String(error.options.url)).protocol === 'https:' : false;
  return (https ? timings.secureConnect : timings.connect) !== undefined;
}

/** The limits each attempt ran under, for messages. */
export interface AttemptLimits {
  /** --timeout, of one attempt. */
  timeoutMs: number;
  /** --max-retry-after: the longest Retry-After waited for. */
  maxRetryAfterMs: number;
}

/** Turns a got error (other than a 401) into the typed error of what happened. */
export function toServiceError(
  error: RequestError,
  limits?: AttemptLimits,
): ServiceRejectedError | ServiceUnavailableError {
  const target = error.options?.url ? new URL(String(error.options.url)).origin : 'the service';
  // A GET is retried: a message about its last attempt says how many there were, so the whole wait is plain.
  const attempts = (error.request?.retryCount ?? 0) + 1;
  const ofAttempts = attempts > 1 ? ` after ${attempts} attempts` : '';
  if (error instanceof HTTPError) {
    const status = error.response.statusCode;
    const retryAfterMs = retryAfter(error.response.headers['retry-after']);
    if (status >= 500 || status === 429 || status === 408) {
      // Inside the parentheses the service's own full stop would end in ".).": it is left out (an ellipsis stays).
      const body = describeBody(error.response.body as string)?.replace(/(?<!\.)\.$/, '');
      const tooLong = limits && retryAfterMs !== undefined && retryAfterMs > limits.maxRetryAfterMs;
      return new ServiceUnavailableError(
        `The service at ${target} is unavailable (HTTP ${status}${body ? `: ${body}` : ''})${ofAttempts}${
          tooLong
            ? `; it asks to retry after ${seconds(retryAfterMs)}, more than the ${seconds(limits.maxRetryAfterMs)} einvoice waits (--max-retry-after)`
            : ''
        }.`,
        { mayHaveReachedService: true, status, retryAfterMs, hint: 'Try again later; --verbose shows each request.' },
      );
    }
    const page = htmlPage(error.response.headers['content-type'], error.response.body as string);
    if (page) {
      // A login page or a proxy's page answers in the service's place: whatever stands in front kept the request.
      const text = describeBody(page);
      return new ServiceUnavailableError(
        `The answer from ${target} is not the service's: an HTML page (HTTP ${status}${text ? `: ${text}` : ''}).`,
        {
          mayHaveReachedService: false,
          status,
          serviceDown: `the answer is an HTML page (HTTP ${status}), not the service's JSON`,
          hint: 'Check the base URL of the environment (einvoice config show): a login page or a proxy answers there.',
        },
      );
    }
    return rejection(status, error.response.body as string);
  }
  const written = requestMayHaveReached(error);
  if (error instanceof TimeoutError) {
    const each = limits ? seconds(limits.timeoutMs) : undefined;
    const bound =
      each === undefined ? '' : attempts > 1 ? ` (${attempts} attempts, each allowed ${each})` : ` (allowed ${each})`;
    return new ServiceUnavailableError(
      written
        ? `The service at ${target} did not answer in time${bound}.`
        : `The request to ${target} could not be sent in time${bound}: nothing reached the service.`,
      {
        mayHaveReachedService: written,
        // No answer says nothing about the request itself: a bulk run counts it toward stopping, as a refused connection.
        serviceDown: `${written ? 'no answer' : 'no connection opened'} ${each === undefined ? 'in time' : `within ${each}`}`,
        hint: 'Raise the limit of each attempt with --timeout SECONDS, or try again later.',
        cause: error,
      },
    );
  }
  const code = error.code;
  const tls = isTlsFailure(error);
  const reason = tls ? tlsReason(error) : (reasons[code] ?? code ?? error.message);
  return new ServiceUnavailableError(`Cannot reach the service at ${target}: ${reason}${ofAttempts}.`, {
    // A TLS failure before the handshake ended left no connection open, so `written` is false for it already.
    mayHaveReachedService: written && !neverSentCodes.has(code),
    serviceDown: unreachableCodes.has(code) || tls ? reason : undefined,
    hint: tls
      ? 'Check the base URL of the environment and its certificate (NODE_EXTRA_CA_CERTS adds a certificate authority).'
      : 'Check the base URL of the environment (einvoice config show) and your network.',
    cause: error,
  });
}

/**
 * `error` with the token shown as *** in every text it carries: a service or proxy may quote the Authorization header
 * in its answer, and each message, report and annotation made from the error must be safe to paste in a log.
 */
export function withoutToken(error: unknown, token: string | undefined): unknown {
  if (!token) return error;
  const clean = (text: string) => redactToken(text, token);
  const cleanIfAny = (text: string | undefined) => (text === undefined ? undefined : clean(text));
  if (error instanceof ServiceRejectedError) {
    return new ServiceRejectedError(clean(error.message), {
      status: error.status,
      code: cleanIfAny(error.code),
      issues: error.issues.map((issue) => ({ path: clean(issue.path), message: clean(issue.message) })),
      existingInvoiceNumber: cleanIfAny(error.existingInvoiceNumber),
      hint: cleanIfAny(error.hint),
    });
  }
  if (error instanceof ServiceUnavailableError) {
    return new ServiceUnavailableError(clean(error.message), {
      mayHaveReachedService: error.mayHaveReachedService,
      status: error.status,
      retryAfterMs: error.retryAfterMs,
      serviceDown: cleanIfAny(error.serviceDown),
      hint: cleanIfAny(error.hint),
      cause: error.cause,
    });
  }
  // The client's other errors (a 401, a refused base URL or invoice number) hold no words of the service.
  return error;
}

/** Milliseconds as whole seconds, for messages: "60 s". */
function seconds(ms: number): string {
  return `${Math.ceil(ms / 1000)} s`;
}

/** The service's refusal, with its message and field errors when its body carries them. */
function rejection(status: number, body: string): ServiceRejectedError {
  const parsed = parseErrorBody(body);
  const issues: FieldIssue[] = (parsed?.errors ?? []).map((entry) => ({
    path: oneLine(entry.field ?? entry.path ?? '(request)'),
    message: oneLine(entry.message ?? 'is invalid'),
  }));
  const message = oneLine(parsed?.message ?? parsed?.error ?? describeBody(body) ?? `HTTP ${status}`);
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

/** The line breaks of every kind, which the service's text must not print as breaks of the tool's output. */
const lineBreaks = /\r\n|[\n\v\f\r\u0085\u2028\u2029]/g;

/**
 * The service's text on one line, each line break shown as ⏎: a message cannot print a line that reads as the
 * tool's own (a "✔ Created single invoice ..." under an error).
 */
export function oneLine(text: string): string {
  return text.replace(lineBreaks, '⏎');
}

/** The body when it is an HTML page rather than JSON (by its content type, or its first character). */
export function htmlPage(contentType: string | undefined, body: string | undefined): string | undefined {
  if (!body) return undefined;
  const html = /html/i.test(contentType ?? '') || /^\s*</.test(body);
  return html && parseErrorBody(body) === undefined ? body : undefined;
}

/** A short, one-line rendering of a body that is not JSON (an HTML error page, plain text). */
function describeBody(body: string | undefined): string | undefined {
  if (!body) return undefined;
  const parsed = parseErrorBody(body);
  if (parsed?.message) return oneLine(parsed.message);
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
