import type { InvoiceDefaults } from '../schemas/config.js';
import type { InvoiceKind } from '../schemas/invoice.js';
import { fromMinorUnits, itemsTotalMinor, toMinorUnits } from '../schemas/money.js';
import type { FieldIssue } from '../errors.js';
import { formatAmount } from '../schemas/number-text.js';
import { dateFields, normalizeDate, type MerchantClock } from './dates.js';

/** Where the fields of one invoice come from, lowest precedence first (prompts come after). */
export interface InvoiceSources {
  kind: InvoiceKind;
  /** `defaults` of the profile file. */
  defaults: InvoiceDefaults;
  /** One record of an invoice file. */
  file?: Record<string, unknown>;
  /** The partial request built from flags. */
  flags: Record<string, unknown>;
  /** The instant relative dates are resolved against. */
  now: Date;
  /** The merchant's time zone, whose days dates name (UTC when absent). */
  timeZone?: string;
  /** Heard each time a date is read as a day of the zone. */
  dayRead?: () => void;
}

const nestedObjects = ['customer', 'discount'] as const;

/** Profile defaults that apply to a kind (a payment type is for single invoices only). */
export function defaultsFor(kind: InvoiceKind, defaults: InvoiceDefaults): Record<string, unknown> {
  const { paymentType, ...shared } = defaults;
  return kind === 'single' && paymentType !== undefined ? { ...shared, paymentType } : shared;
}

/**
 * Merges profile defaults < file < flags into one raw request: customer and discount merge field by field,
 * items from flags replace the file's, and dates are normalised to their wire shapes.
 */
export function mergeInvoiceSources(sources: InvoiceSources): Record<string, unknown> {
  // Runs once per record of a bulk file: one copy of the layers, with the dates normalised in it.
  const defaults = defaultsFor(sources.kind, sources.defaults);
  const file = sources.file ?? {};
  const { flags } = sources;
  const merged: Record<string, unknown> = Object.assign({}, defaults, file, flags);
  for (const key of nestedObjects) {
    const parts = [defaults[key], file[key], flags[key]].filter((value) => value !== undefined);
    if (parts.length > 1 && parts.every((part) => typeof part === 'object' && part !== null && !Array.isArray(part))) {
      merged[key] = Object.assign({}, ...parts);
    }
  }
  return normalizeDates(merged, { now: sources.now, timeZone: sources.timeZone, dayRead: sources.dayRead });
}

/**
 * Normalises the date fields of `raw` (`today`, `+7d`, bare dates) to their wire shapes, in place; the sending date
 * first, from which a relative expiry counts.
 */
function normalizeDates(raw: Record<string, unknown>, clock: MerchantClock): Record<string, unknown> {
  for (const field of dateFields) {
    if (raw[field] !== undefined) raw[field] = normalizeDate(field, raw[field], clock, raw.sendingDate);
  }
  return raw;
}

/** The total of the items in minor units, or undefined while any item lacks a usable price or quantity. */
export function itemsTotal(items: unknown): bigint | undefined {
  if (!Array.isArray(items) || items.length === 0) return undefined;
  const usable = items.every(
    (item) =>
      typeof item === 'object' &&
      item !== null &&
      typeof (item as { price?: unknown }).price === 'number' &&
      Number.isInteger((item as { purchasedQuantity?: unknown }).purchasedQuantity) &&
      ((item as { discount?: { value?: unknown } }).discount === undefined ||
        typeof (item as { discount?: { value?: unknown } }).discount?.value === 'number'),
  );
  return usable ? itemsTotalMinor(items as Parameters<typeof itemsTotalMinor>[0]) : undefined;
}

/**
 * The issues of a request whose amount is left to its items' total: when an item is wrong, the amount's own issue
 * (none, or a negative total) would only echo it, so it is left out.
 */
export function withoutAmountEchoingItems(issues: FieldIssue[]): FieldIssue[] {
  const itemsAreWrong = issues.some((issue) => issue.path.startsWith('items'));
  return itemsAreWrong ? issues.filter((issue) => issue.path !== 'amount') : issues;
}

/** What the amount is once items are considered. */
export type AmountCheck =
  { kind: 'as-given' } | { kind: 'computed'; amount: number } | { kind: 'conflict'; given: number; computed: number };

/**
 * Rule 2.3.1 and the merchant's intent: with items and no amount, the amount is the items' total (computed in
 * minor units); with both, a difference is reported so the merchant decides.
 */
export function checkAmount(raw: Record<string, unknown>): AmountCheck {
  const totalMinor = itemsTotal(raw.items);
  if (totalMinor === undefined) return { kind: 'as-given' };
  const computed = fromMinorUnits(totalMinor);
  if (raw.amount === undefined) return { kind: 'computed', amount: computed };
  if (typeof raw.amount === 'number' && Number.isFinite(raw.amount) && toMinorUnits(raw.amount) !== totalMinor) {
    return { kind: 'conflict', given: raw.amount, computed };
  }
  return { kind: 'as-given' };
}

/** The merchant's word on an amount that differs from its items' total. */
export type AmountChoice = 'keep' | 'items';

/**
 * Settles the amount of `raw` in place: the items' total when no amount is given; when both are given and differ,
 * the merchant's choice (a warning naming it), or without one an issue naming both figures.
 */
export function settledAmount(
  raw: Record<string, unknown>,
  choice: AmountChoice | undefined,
): { issue?: FieldIssue; decided?: FieldIssue } {
  const amount = checkAmount(raw);
  if (amount.kind === 'computed') raw.amount = amount.amount;
  if (amount.kind !== 'conflict') return {};
  const given = formatAmount(amount.given);
  const computed = formatAmount(amount.computed);
  if (choice === 'keep') {
    return {
      decided: {
        path: 'amount',
        message: `${given} differs from the items' total ${computed}; sent as given (--keep-amount)`,
      },
    };
  }
  if (choice === 'items') {
    raw.amount = amount.computed;
    return {
      decided: {
        path: 'amount',
        message: `${given} differs from the items' total ${computed}; sent as ${computed} (--amount-from-items)`,
      },
    };
  }
  return {
    issue: {
      path: 'amount',
      message: `is ${given}, the items add up to ${computed}: --keep-amount sends ${given}, --amount-from-items sends ${computed}`,
      figure: `${given} ≠ ${computed}`,
      cause:
        "differs from the items' total: --keep-amount sends the amount as given, --amount-from-items the items' total",
    },
  };
}
