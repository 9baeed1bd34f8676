import type { FieldIssue } from '../errors.js';
import { withDateForms } from '../input/dates.js';
import { setByFlag, withFlagName } from '../input/invoice-flags.js';
import {
  mergeInvoiceSources,
  settledAmount,
  withoutAmountEchoingItems,
  type AmountChoice,
} from '../input/invoice-input.js';
import type { InvoiceDefaults } from '../schemas/config.js';
import { invoiceSchemas, type Invoice, type InvoiceKind } from '../schemas/invoice.js';
import { jsonProblem } from '../input/json-file.js';
import { parseJsonExactly } from '../schemas/exact-json.js';
import { validate } from '../schemas/validate.js';
import { parseValidInvoice } from '../schemas/invoice-fast-path.js';
import { generatedReference } from './content-key.js';
import { withoutUnknownFields } from '../schemas/unknown-fields.js';

// Turns one record of the file into the body it is sent with, exactly as the one-invoice flow would: profile
// defaults < record < flags, dates resolved, the amount computed from the items, then the shared schema.

/** What every record of a batch is merged with. */
export interface RecordContext {
  kind: InvoiceKind;
  defaults: InvoiceDefaults;
  /** The partial invoice built from the flags; it wins over each record's fields. */
  flags: Record<string, unknown>;
  /** The instant relative dates resolve to. */
  now: Date;
  /** The merchant's time zone, whose days dates name (UTC when absent). */
  timeZone?: string;
  /**
   * What to send when an amount differs from its items' total: the amount as given (`keep`), the items' total
   * (`items`), or neither (absent): the record is refused with both figures.
   */
  amountChoice?: AmountChoice;
  referencePrefix?: string;
  /**
   * With --drop-unknown-fields: each record is sent without the fields the spec does not list, counted here by
   * field (`items[n].sku`) as they are dropped.
   */
  droppedFields?: Map<string, number>;
}

/** The path of an issue with the record as a whole. */
export const wholeRecord = '(record)';

/** Parses a record's text: the invoice object without `$schema`, or why it is not one. */
export function parseRecord(text: string): { record: Record<string, unknown> } | { issue: FieldIssue } {
  let value: unknown;
  try {
    value = parseJsonExactly(text);
  } catch (error) {
    return {
      issue: { path: wholeRecord, message: `is not valid JSON: ${jsonProblem(text, (error as Error).message)}` },
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { issue: { path: wholeRecord, message: 'must be a JSON object (one invoice)' } };
  }
  const record = value as Record<string, unknown>;
  if (!('$schema' in record)) return { record };
  const { $schema: _schema, ...rest } = record;
  return { record: rest };
}

/**
 * The record merged with the defaults and flags: dates resolved, the amount computed from the items when absent,
 * a businessReference given when --reference-prefix asks (`canonical` is the record's content, for its hash). An
 * amount that differs from its items is an issue, or with the merchant's choice a warning of what was decided.
 */
export function mergeRecord(
  record: Record<string, unknown>,
  recordNumber: number,
  context: RecordContext,
  canonical: () => string,
): { raw: Record<string, unknown>; issues: FieldIssue[]; decided: FieldIssue[] } {
  let file = record;
  if (context.droppedFields) {
    const { value, dropped } = withoutUnknownFields(context.kind, record);
    file = value;
    for (const path of new Set(dropped.map((field) => field.replace(/\[\d+\]/g, '[n]')))) {
      context.droppedFields.set(path, (context.droppedFields.get(path) ?? 0) + 1);
    }
  }
  const raw = mergeInvoiceSources({
    kind: context.kind,
    defaults: context.defaults,
    file,
    flags: context.flags,
    now: context.now,
    timeZone: context.timeZone,
  });
  const amount = settledAmount(raw, context.amountChoice);
  if (context.referencePrefix && raw.businessReference === undefined) {
    raw.businessReference = generatedReference(context.referencePrefix, canonical(), recordNumber);
  }
  return { raw, issues: amount.issue ? [amount.issue] : [], decided: amount.decided ? [amount.decided] : [] };
}

/** Validates a merged record with the shared schema; issues of fields set by flags name the flag. */
export function checkBody(
  raw: Record<string, unknown>,
  earlierIssues: FieldIssue[],
  context: RecordContext,
): { body: Invoice } | { issues: FieldIssue[] } {
  // The compiled parse is the fast path; `validate` words the issues of the few records that fail.
  const body = parseValidInvoice(context.kind, raw);
  if (body && earlierIssues.length === 0) return { body };
  const checked = body ? undefined : validate(invoiceSchemas[context.kind], raw);
  const schemaIssues = checked && !checked.success ? checked.issues : [];
  // Items and no amount, yet no amount computed: the items could not be added up, and their issues say why.
  const amountLeftToItems = raw.amount === undefined && Array.isArray(raw.items) && raw.items.length > 0;
  const issues = [...earlierIssues, ...(amountLeftToItems ? withoutAmountEchoingItems(schemaIssues) : schemaIssues)];
  return {
    issues: issues.map((issue) => (setByFlag(issue.path, context.flags) ? withFlagName(issue) : withDateForms(issue))),
  };
}
