import { describe, expect, it } from 'vitest';
import { backoffMs, decideRetry, rateLimitPauseMs, type RetryDecision } from '../../src/bulk/retry-policy.js';
import { AuthError, EinvoiceError, ExitCode, ServiceRejectedError, ServiceUnavailableError } from '../../src/errors.js';

const unavailable = (details: ConstructorParameters<typeof ServiceUnavailableError>[1]) =>
  new ServiceUnavailableError('unavailable', details);

const errors = {
  'connection refused': unavailable({ mayHaveReachedService: false }),
  '429 with Retry-After': unavailable({ mayHaveReachedService: true, status: 429, retryAfterMs: 1000 }),
  '429 without Retry-After': unavailable({ mayHaveReachedService: true, status: 429 }),
  '503 with Retry-After': unavailable({ mayHaveReachedService: true, status: 503, retryAfterMs: 1000 }),
  '503 without Retry-After': unavailable({ mayHaveReachedService: true, status: 503 }),
  '500': unavailable({ mayHaveReachedService: true, status: 500 }),
  'time-out or dropped connection': unavailable({ mayHaveReachedService: true }),
  'unreadable answer': new EinvoiceError('unexpected response', ExitCode.Unavailable),
  '400': new ServiceRejectedError('bad', { status: 400, code: 'VALIDATION_FAILED' }),
  duplicate: new ServiceRejectedError('dup', {
    status: 409,
    code: 'DUPLICATE_INVOICE',
    existingInvoiceNumber: '1000042',
  }),
  '401': new AuthError('token refused'),
} as const;

type Case = [keyof typeof errors, RetryDecision['action'], RetryDecision['action']];

// The policy: error, then what happens with a businessReference, then without one.
const table: Case[] = [
  ['connection refused', 'retry', 'retry'],
  ['429 with Retry-After', 'retry', 'retry'],
  ['429 without Retry-After', 'retry', 'fail'],
  ['503 with Retry-After', 'retry', 'retry'],
  ['503 without Retry-After', 'retry', 'uncertain'],
  ['500', 'retry', 'uncertain'],
  ['time-out or dropped connection', 'retry', 'uncertain'],
  ['unreadable answer', 'retry', 'uncertain'],
  ['400', 'fail', 'fail'],
  ['duplicate', 'exists', 'exists'],
  ['401', 'stop', 'stop'],
];

describe('decideRetry', () => {
  it.each(table)('%s: %s with a businessReference, %s without', (name, withReference, withoutReference) => {
    const error = errors[name];
    expect(decideRetry(error, { hasReference: true, attempts: 1, retries: 3 }).action).toBe(withReference);
    expect(decideRetry(error, { hasReference: false, attempts: 1, retries: 3 }).action).toBe(withoutReference);
  });

  it('gives a record up at once when the Retry-After is longer than --max-retry-after', () => {
    const hour = unavailable({ mayHaveReachedService: true, status: 503, retryAfterMs: 3_600_000 });
    const context = { hasReference: false, attempts: 1, retries: 3, maxRetryAfterMs: 60_000 };
    expect(decideRetry(hour, context)).toMatchObject({ action: 'fail', mayHaveCreated: false });
    expect(decideRetry(hour, { ...context, maxRetryAfterMs: 4_000_000 }).action).toBe('retry');
    const limited = unavailable({ mayHaveReachedService: true, status: 429, retryAfterMs: 3_600_000 });
    expect(rateLimitPauseMs(limited, 1, () => 0, 60_000)).toBeUndefined();
  });

  it('says whether the failed attempt may have created the invoice', () => {
    const may = (name: keyof typeof errors) =>
      decideRetry(errors[name], { hasReference: true, attempts: 1, retries: 3 }).mayHaveCreated;
    expect(may('connection refused')).toBe(false);
    expect(may('503 with Retry-After')).toBe(false);
    expect(may('429 without Retry-After')).toBe(false);
    expect(may('500')).toBe(true);
    expect(may('time-out or dropped connection')).toBe(true);
    expect(may('400')).toBe(false);
  });

  it('gives up after --retries: uncertain if the attempt may have created it, failed if not', () => {
    const last = { hasReference: true, attempts: 4, retries: 3 };
    expect(decideRetry(errors['500'], last).action).toBe('uncertain');
    expect(decideRetry(errors['503 with Retry-After'], last).action).toBe('fail');
    expect(decideRetry(errors['500'], { ...last, attempts: 3 }).action).toBe('retry');
    expect(decideRetry(errors['connection refused'], { hasReference: false, attempts: 1, retries: 0 }).action).toBe(
      'fail',
    );
  });

  it('waits the Retry-After of a 503, the backoff otherwise, and nothing extra after a 429 (the pause is shared)', () => {
    const random = () => 0.5;
    const after503 = decideRetry(errors['503 with Retry-After'], {
      hasReference: false,
      attempts: 1,
      retries: 3,
      random,
    });
    const afterDrop = decideRetry(errors['time-out or dropped connection'], {
      hasReference: true,
      attempts: 2,
      retries: 3,
      random,
    });
    const after429 = decideRetry(errors['429 with Retry-After'], {
      hasReference: false,
      attempts: 1,
      retries: 3,
      random,
    });
    expect(after503).toMatchObject({ action: 'retry', delayMs: 1050 });
    expect(afterDrop).toMatchObject({ action: 'retry', delayMs: backoffMs(2, random) });
    expect(after429).toMatchObject({ action: 'retry', delayMs: 0 });
    expect(rateLimitPauseMs(errors['429 with Retry-After'], 1)).toBe(1000);
    expect(rateLimitPauseMs(errors['429 without Retry-After'], 1, random)).toBe(backoffMs(1, random));
    expect(rateLimitPauseMs(errors['503 with Retry-After'], 1)).toBeUndefined();
  });

  it('names the existing invoice of a duplicate', () => {
    expect(decideRetry(errors.duplicate, { hasReference: true, attempts: 2, retries: 3 })).toMatchObject({
      action: 'exists',
      invoiceNumber: '1000042',
    });
  });
});

describe('backoffMs', () => {
  it('doubles from 250 ms up to 8 s, with up to half of it taken off at random', () => {
    expect([1, 2, 3, 6, 10].map((retry) => backoffMs(retry, () => 1))).toEqual([250, 500, 1000, 8000, 8000]);
    expect([1, 2, 3].map((retry) => backoffMs(retry, () => 0))).toEqual([125, 250, 500]);
  });
});
