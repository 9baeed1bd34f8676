import { AuthError, ServiceRejectedError, ServiceUnavailableError } from '../errors.js';
import { serviceErrorCodes } from '../schemas/service-error.js';

// When a failed create may be sent again. Creating an invoice is not idempotent: a resend is safe only when the
// first request provably did not create anything, or when the service would reject a second one as a duplicate
// (a record with a businessReference, rule 2.3.2).

/** What to do after one attempt at a record failed. */
export type RetryDecision =
  /** Send it again after `delayMs`. */
  | { action: 'retry'; delayMs: number; mayHaveCreated: boolean; reason: string }
  /** The service already holds it (a duplicate rejection): count it as created. */
  | { action: 'exists'; invoiceNumber?: string; mayHaveCreated: boolean; reason: string }
  /** Not created, and not worth retrying in this run. */
  | { action: 'fail'; mayHaveCreated: false; reason: string }
  /** It may have been created, and a resend could create it twice. */
  | { action: 'uncertain'; mayHaveCreated: true; reason: string }
  /** The token was refused: no other record will fare better. */
  | { action: 'stop'; mayHaveCreated: false; reason: string };

export interface AttemptContext {
  /** The record has a businessReference, so the service refuses a second copy of it. */
  hasReference: boolean;
  /** Attempts made so far at this record in this run, the failed one included (1 after the first). */
  attempts: number;
  /** Retries allowed after the first attempt (--retries). */
  retries: number;
  /** The longest Retry-After waited for (--max-retry-after); a longer one ends the record's attempts. */
  maxRetryAfterMs?: number;
  /**
   * Only a 429 (or a request that never reached the service) is sent again: for a request without an idempotency
   * key (a refund), where a 503 is no promise that nothing was done.
   */
  rateLimitOnly?: boolean;
  /** Random number in [0, 1), for the jitter. */
  random?: () => number;
}

/** Backoff before the nth retry (from 1): 250 ms doubling to at most 8 s, less up to half of it at random. */
export function backoffMs(retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(8_000, 250 * 2 ** (retry - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** How long all workers pause after a 429: its Retry-After, else the backoff; never longer than `maxRetryAfterMs`. */
export function rateLimitPauseMs(
  error: unknown,
  retry: number,
  random: () => number = Math.random,
  maxRetryAfterMs = Number.POSITIVE_INFINITY,
): number | undefined {
  if (!(error instanceof ServiceUnavailableError) || error.status !== 429) return undefined;
  if (error.retryAfterMs !== undefined && error.retryAfterMs > maxRetryAfterMs) return undefined;
  return error.retryAfterMs ?? backoffMs(retry, random);
}

/**
 * Why no record can succeed while this failure lasts, or undefined when it is the record's own: the service is out
 * of reach, what answers is not the service, or it asks to come back later than --max-retry-after allows.
 */
export function failsEveryRecord(error: unknown, maxRetryAfterMs = Number.POSITIVE_INFINITY): string | undefined {
  if (!(error instanceof ServiceUnavailableError)) return undefined;
  if (error.serviceDown) return error.serviceDown;
  if (error.retryAfterMs !== undefined && error.retryAfterMs > maxRetryAfterMs) {
    return `the service asks to retry after ${Math.ceil(error.retryAfterMs / 1000)} s, more than --max-retry-after allows`;
  }
  return undefined;
}

/**
 * Decides after a failed attempt:
 * - 401: stop the run. A duplicate rejection: it exists. Any other 4xx: failed (a rerun tries again).
 * - Never reached the service (connection refused, DNS): retry.
 * - 429 or 503 with Retry-After: the service says it did not take the request; retry after that delay.
 * - Other 5xx, time-outs, dropped connections, unreadable answers: retry only with a businessReference; without
 *   one the record is uncertain and is not sent again.
 * - When the retries are used up: uncertain if the failed attempt may have created it, failed otherwise.
 */
export function decideRetry(error: unknown, context: AttemptContext): RetryDecision {
  const random = context.random ?? Math.random;
  const reason = error instanceof Error ? error.message : String(error);
  if (error instanceof AuthError) return { action: 'stop', mayHaveCreated: false, reason };
  if (error instanceof ServiceRejectedError) {
    if (error.code === serviceErrorCodes.duplicateInvoice) {
      return { action: 'exists', invoiceNumber: error.existingInvoiceNumber, mayHaveCreated: true, reason };
    }
    return { action: 'fail', mayHaveCreated: false, reason };
  }

  const answeredNotTaken =
    error instanceof ServiceUnavailableError &&
    (error.status === 429 || (error.status === 503 && !context.rateLimitOnly)) &&
    error.retryAfterMs !== undefined;
  const neverReached = error instanceof ServiceUnavailableError && !error.mayHaveReachedService;
  const safe = neverReached || answeredNotTaken;
  // Without an idempotency key (a refund), any answer but a 429, once the request reached the service, may mean
  // it was done: a 5xx says nothing of what happened before it.
  const mayHaveCreated = context.rateLimitOnly
    ? !(neverReached || isRateLimited(error))
    : !(error instanceof ServiceUnavailableError) || error.mayHaveTakenEffect();
  const retryAfter = error instanceof ServiceUnavailableError ? error.retryAfterMs : undefined;

  // A wait longer than --max-retry-after is not waited out silently: this run gives the record up.
  if (retryAfter !== undefined && retryAfter > (context.maxRetryAfterMs ?? Number.POSITIVE_INFINITY)) {
    return mayHaveCreated
      ? { action: 'uncertain', mayHaveCreated, reason }
      : { action: 'fail', mayHaveCreated, reason };
  }

  if (!safe && !context.hasReference) {
    // A 429 without Retry-After still says "not taken", but does not say when to come back.
    return mayHaveCreated
      ? { action: 'uncertain', mayHaveCreated, reason }
      : { action: 'fail', mayHaveCreated, reason };
  }
  if (context.attempts > context.retries) {
    return mayHaveCreated
      ? { action: 'uncertain', mayHaveCreated, reason }
      : { action: 'fail', mayHaveCreated, reason };
  }
  // The pause after a 429 is shared by all workers (see rateLimitPauseMs); the attempt itself waits no longer.
  if (isRateLimited(error)) return { action: 'retry', delayMs: 0, mayHaveCreated, reason };
  const delayMs =
    retryAfter !== undefined ? retryAfter + Math.round(100 * random()) : backoffMs(context.attempts, random);
  return { action: 'retry', delayMs, mayHaveCreated, reason };
}

function isRateLimited(error: unknown): boolean {
  return error instanceof ServiceUnavailableError && error.status === 429;
}
