import * as z from 'zod';
import { addMonths } from './months.js';

/**
 * The kinds of fault the sandbox can inject into the service's operations. A new kind goes last: each draw is read
 * against the rates in this order, so a seed keeps injecting the faults it did.
 */
export const faultKinds = ['500', '503', '429', 'drop', 'drop-after-commit', 'hang'] as const;
export type FaultKind = (typeof faultKinds)[number];

const rate = z.number().min(0, { error: 'must be from 0 to 1' }).max(1, { error: 'must be from 0 to 1' });

/** Fault injection settings: latency, a rate per fault kind, and the seed that makes them reproducible. */
export const faultSettingsSchema = z
  .strictObject({
    latencyMs: z.number().int().min(0).max(600_000).optional(),
    faults: z.partialRecord(z.enum(faultKinds), rate).optional(),
    seed: z.number().int().optional(),
  })
  .check((ctx) => {
    const total = Object.values(ctx.value.faults ?? {}).reduce((sum, value) => sum + (value ?? 0), 0);
    if (total > 1) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value.faults,
        path: ['faults'],
        message: 'rates must add up to at most 1',
      });
    }
  });
export type FaultSettings = z.output<typeof faultSettingsSchema>;

/** A duration such as `30d`, `2w`, `1m` (a calendar month), `12h`, `90min` or `45s`. */
export const durationSchema = z.string().regex(/^\d+(?:min|[smhdw])$/, {
  error: 'must be a duration such as 30d, 2w, 1m (a month, as in dates), 12h, 90min or 45s',
});

/** `POST /__sandbox/clock`: move the sandbox's clock forward, or set it. */
export const clockChangeSchema = z.union(
  [z.strictObject({ advance: durationSchema }), z.strictObject({ now: z.iso.datetime({ offset: true }) })],
  { error: 'must be {"advance":"30d"} or {"now":"<ISO date-time>"}' },
);
export type ClockChange = z.output<typeof clockChangeSchema>;

/** `POST /__sandbox/tokens`: issue a token that expires after `ttlSeconds` of sandbox time. */
export const tokenRequestSchema = z.strictObject({
  ttlSeconds: z.number().int().min(0).optional(),
});

/** `POST /__sandbox/reset`: start over, with the demo invoices or empty. */
export const resetRequestSchema = z.strictObject({
  demo: z.boolean().optional(),
});

/**
 * How far a duration moves the clock from `from`: `m` is whole months, as `+1m` in a date flag is (Jan 31 + 1m is the
 * last day of February), and `min` is minutes.
 */
export function durationToMs(duration: string, from: Date): number {
  const [, digits = '', unit = ''] = /^(\d+)(.*)$/.exec(duration) ?? [];
  const amount = Number(digits);
  if (unit === 'm') return addMonths(from, amount).getTime() - from.getTime();
  const unitMs: Record<string, number> = { s: 1_000, min: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
  return amount * (unitMs[unit] ?? Number.NaN);
}

// Responses of the sandbox's admin API, for the commands and tests that read them.

/** Where an invoice is in its life in the sandbox; each status is one group of the statistics. */
export const sandboxInvoiceStatuses = ['UNPAID', 'PAID', 'EXPIRED', 'REFUNDED', 'CANCELED'] as const;
export type SandboxInvoiceStatus = (typeof sandboxInvoiceStatuses)[number];

/** A refund the sandbox accepted. */
export const sandboxRefundSchema = z.object({
  amount: z.number(),
  reason: z.string(),
  orderReferenceNumber: z.string(),
  at: z.string(),
});

/** One invoice of `GET /__sandbox/invoices`; `request` is the body exactly as the sandbox received it. */
export const sandboxInvoiceSchema = z.looseObject({
  invoiceNumber: z.string(),
  kind: z.enum(['single', 'recurring']),
  status: z.enum(sandboxInvoiceStatuses),
  amount: z.number(),
  request: z.unknown(),
  createdAt: z.string(),
  orderReferenceNumber: z.string().optional(),
  refunds: z.array(sandboxRefundSchema),
});
export type SandboxInvoice = z.output<typeof sandboxInvoiceSchema>;

/** `GET /__sandbox/invoices`; `next` is the cursor of the next page, when a page was asked for and one follows. */
export const sandboxInvoicesResponseSchema = z.object({
  invoices: z.array(sandboxInvoiceSchema),
  next: z.string().optional(),
});

/** One SMS or e-mail of `GET /__sandbox/outbox`. */
export const outboxMessageSchema = z.object({
  to: z.enum(['customer', 'merchant']),
  channel: z.enum(['SMS', 'EMAIL']),
  address: z.string(),
  lang: z.string(),
  invoiceNumber: z.string(),
  /** An e-mail's subject; its body is `text`. */
  subject: z.string().optional(),
  text: z.string(),
  at: z.string(),
});
export type SandboxOutboxMessage = z.output<typeof outboxMessageSchema>;

/** `GET /__sandbox/outbox`. */
export const outboxResponseSchema = z.object({ messages: z.array(outboxMessageSchema) });

/** `POST /__sandbox/invoices/{n}/pay` and `/cancel`. */
export const settleResponseSchema = z.object({
  invoiceNumber: z.string(),
  status: z.enum(sandboxInvoiceStatuses),
  orderReferenceNumber: z.string().optional(),
});

/** `GET /__sandbox/clock`, and `POST` which also lists the invoices that expired. */
export const clockResponseSchema = z.object({
  now: z.string(),
  expired: z.array(z.string()).optional(),
});

/** `POST /__sandbox/reset`: how many invoices the new state holds. */
export const resetResponseSchema = z.object({ invoices: z.number().int().min(0) });

/** `POST /__sandbox/tokens`. */
export const tokenResponseSchema = z.object({ token: z.string(), expiresAt: z.string() });

/** `GET` and `POST /__sandbox/faults`: the settings in force. */
export const faultsInForceSchema = z.object({
  latencyMs: z.number().int().min(0),
  faults: z.partialRecord(z.enum(faultKinds), z.number()),
  seed: z.number().int(),
});

/** The most invoices one page of the admin API or the dashboard holds. */
export const maxPageSize = 1000;

const pageSize = z
  .string()
  .regex(/^\d{1,4}$/, { error: `must be a whole number from 1 to ${maxPageSize}` })
  .transform(Number)
  .pipe(
    z
      .number()
      .min(1, { error: `must be a whole number from 1 to ${maxPageSize}` })
      .max(maxPageSize, { error: `must be a whole number from 1 to ${maxPageSize}` }),
  );
const pageCursor = z.string().regex(/^\d{1,64}$/, { error: 'must be an invoice number' });

/** `GET /__sandbox/invoices?limit=&after=`: a page of invoices, in the order they were created, after `after`. */
export const invoicePageQuerySchema = z.strictObject({ limit: pageSize.optional(), after: pageCursor.optional() });

/** `GET /__sandbox/requests?limit=&after=`: a page of the request history, in the order received, after `after`. */
export const requestPageQuerySchema = z.strictObject({
  limit: pageSize.optional(),
  after: z
    .string()
    .regex(/^\d{1,15}$/, { error: 'must be the seq of a request' })
    .transform(Number)
    .optional(),
});

/** How a request the sandbox received ended: answered, its connection dropped, hung until the client left, or not yet. */
export const requestEndings = ['answered', 'dropped', 'hung', 'in-flight'] as const;

/** One request of the service's history (`GET /__sandbox/requests`). */
export const sandboxRequestSchema = z.object({
  /** Its place in the history, in the order the requests were received (by every process serving the file). */
  seq: z.number().int(),
  receivedAt: z.string(),
  /** When it ended; null while in flight (or when the sandbox stopped first). */
  endedAt: z.string().nullable(),
  method: z.string(),
  path: z.string(),
  /** SHA-256 of the body as received (hex), when it was read: every request that passed the token check. */
  bodySha256: z.string().nullable(),
  bodyBytes: z.number().int().nullable(),
  /** The fault injected into it, if any. */
  fault: z.enum(faultKinds).nullable(),
  /** Whether it changed the service's state (an invoice created, a refund made); null while in flight. */
  committed: z.boolean().nullable(),
  /** The HTTP status answered; null when no answer was sent. */
  status: z.number().int().nullable(),
  ended: z.enum(requestEndings),
  /** The invoice it created, or the one its path names (a refund's). */
  invoiceNumber: z.string().nullable(),
});
export type SandboxRequest = z.output<typeof sandboxRequestSchema>;

/** `GET /__sandbox/requests`; `next` is the cursor of the next page, when a page was asked for and one follows. */
export const sandboxRequestsResponseSchema = z.object({
  requests: z.array(sandboxRequestSchema),
  next: z.string().optional(),
});

/**
 * `GET /__sandbox/dashboard?limit=&status=&search=`: the newest `limit` invoices (default 50) of a status, or whose
 * number or business reference begins with `search`.
 */
export const dashboardQuerySchema = z.strictObject({
  limit: pageSize.optional(),
  status: z.enum(sandboxInvoiceStatuses).optional(),
  search: z.string().max(200, { error: 'must be at most 200 characters' }).optional(),
});

/**
 * The header a sandbox names the state that answered a create or a refund with: its invoice numbers start again in a
 * new state (after `sandbox reset`, in a new served sandbox), so a client keeps the numbers of two states apart. The
 * service's interface names no such header; only the sandbox sends it.
 */
export const sandboxStateHeader = 'einvoice-sandbox-state';

/** The name of a sandbox's state, as a client takes it from that header: anything else is not taken. */
export function sandboxStateOf(value: unknown): string | undefined {
  return typeof value === 'string' && /^[A-Za-z0-9-]{1,64}$/.test(value) ? value : undefined;
}
