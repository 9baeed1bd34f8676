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
import { contentHash, generatedReference } from './content-key.js';
import { withLedgerCopy } from './ledger-copy.js';
import { withoutUnknownFields } from '../schemas/unknown-fields.js';
import { dateProblems, wireDates } from '../schemas/invoice-dates.js';
import { contactWarnings, withFixedMobile } from '../schemas/contact-warnings.js';
import { invoiceIdentityKey } from '../schemas/same-invoice.js';
import { invoiceColumnsOf } from '../sheet/index.js';
import {
  invoiceSending,
  type BulkKind,
  type CheckingKind,
  type KindOptions,
  type KindWords,
  type RecordCheck,
} from './kind.js';

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
  /** Heard each time a date is read as a day of the zone. */
  dayRead?: () => void;
  /**
   * What to send when an amount differs from its items' total: the amount as given (`keep`), the items' total
   * (`items`), or neither (absent): the record is refused with both figures.
   */
  amountChoice?: AmountChoice;
  referencePrefix?: string;
  /** Send each mobile number as its warning suggests (a leading 0 dropped, the + of +20 lost), telling the change. */
  fixMobiles?: boolean;
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
 * a businessReference given when --reference-prefix asks (`canonical` is the record's content, for its hash), and a
 * mobile number as its warning suggests when --fix-mobiles asks. An amount that differs from its items is an issue,
 * or with the merchant's choice a warning of what was decided, as is a mobile number changed.
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
    dayRead: context.dayRead,
  });
  const amount = settledAmount(raw, context.amountChoice);
  if (context.referencePrefix && raw.businessReference === undefined) {
    raw.businessReference = generatedReference(context.referencePrefix, canonical(), recordNumber);
  }
  const mobile = context.fixMobiles ? withFixedMobile(raw) : { invoice: raw };
  const decided = [amount.decided, mobile.fixed].filter((warning) => warning !== undefined);
  return { raw: mobile.invoice, issues: amount.issue ? [amount.issue] : [], decided };
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

/** How each invoice of a run is checked: its merging and the rules a person at a terminal would apply. */
export interface InvoiceChecks extends RecordContext {
  /** The instant an expiry must be after. */
  datesAt: Date;
  /** Send the records whose expiry has passed or is not after their other dates (else they are held back). */
  allowExpired?: boolean;
  /** Hold back every record with a warning the run has not decided, and every record without a businessReference. */
  strict?: boolean;
}

/** A record without a businessReference, refused under `strict`. */
const noReferenceUnderStrict: FieldIssue = {
  path: 'businessReference',
  message:
    'is required under --strict: without one, a run of another journal would create the invoice again (--reference-prefix gives each record one)',
};

/** How invoices of `kind` speak of themselves. */
export function invoiceWords(kind: InvoiceKind): KindWords {
  return {
    reference: 'businessReference',
    record: `${kind} invoice record`,
    records: 'invoice records',
    ofFile: 'record',
    done: 'created',
    made: 'created',
    retry: 'run the same command again to retry them',
    command: `einvoice create ${kind}`,
    markedBy: 'row',
  };
}

/**
 * Invoices to create, as the plan of a run checks them; with the merchant's ledger, a record without a
 * businessReference that it holds from another run is told.
 */
export function invoiceChecking(checks: InvoiceChecks, options: KindOptions = {}): CheckingKind {
  const rules = invoiceRules(checks);
  const sameContent = options.ledger?.sameContent;
  if (!sameContent) return rules;
  return {
    ...rules,
    check(record, recordNumber, content, sentBefore) {
      const result = rules.check(record, recordNumber, content, sentBefore);
      // The record as the file gives it, as its journal knows it: a rerun elsewhere resolves its dates anew.
      const copy =
        result.body && result.body.businessReference === undefined
          ? sameContent(contentHash(checks.kind, content()))
          : undefined;
      return copy ? withLedgerCopy(result, copy) : result;
    },
  };
}

/** The rules each invoice of a run is checked by: a person's at a terminal. */
function invoiceRules(checks: InvoiceChecks): CheckingKind {
  const datesAt = checks.datesAt.toISOString();
  return {
    name: checks.kind,
    words: invoiceWords(checks.kind),
    ownReference: (record) => stringField(record.businessReference ?? checks.flags.businessReference),
    resendable: (body) => body.businessReference !== undefined,
    nameOf: (body) => stringField((body.customer as { name?: unknown } | undefined)?.name),
    // Rule 2.3.2: the same businessReference, amount and sendingDate are the same invoice; only the first is sent.
    sameAs: (body) =>
      body.businessReference === undefined
        ? undefined
        : {
            key: invoiceIdentityKey(body as unknown as Parameters<typeof invoiceIdentityKey>[0]),
            repeat: 'duplicate',
            why: 'same businessReference, amount and sendingDate as',
          },
    // The row of a sheet, the line of NDJSON, as the run lists the record.
    markName: ({ record, line }) => (record === undefined ? undefined : String(line ?? record)),
    check(record, recordNumber, content, sentBefore) {
      // A record that may have been created is sent again with the very body it was sent with.
      const merged = sentBefore
        ? { raw: sentBefore, issues: [], decided: [] }
        : mergeRecord(record, recordNumber, checks, content);
      const checked = checkBody(merged.raw, merged.issues, checks);
      const body = 'body' in checked ? (checked.body as unknown as Record<string, unknown>) : undefined;
      // Every finding of the record at once: its issues, its values to look at and its dates, valid or not.
      const dates = body ? (checked as { body: Invoice }).body : wireDates(merged.raw);
      const problems = dates ? dateProblems(dates, datesAt) : [];
      const datesIssues = problems.map(({ path, message, expired }) => ({
        path,
        message,
        ...(expired ? { cause: 'has already passed: the customer could not pay it', figure: dates?.expiryDate } : {}),
      }));
      const toLookAt: FieldIssue[] = contactWarnings(body ?? merged.raw);
      // Told as sent whether its line names one record or many (the cause).
      const sentAnyway = (issue: FieldIssue) => ({
        ...issue,
        message: `${issue.message}; sent (--allow-expired)`,
        ...(issue.cause === undefined ? {} : { cause: `${issue.cause}; sent (--allow-expired)` }),
      });
      const warnings = [...merged.decided, ...(checks.allowExpired ? datesIssues.map(sentAnyway) : []), ...toLookAt];
      const expired = problems.some((problem) => problem.expired);
      if (!body) {
        const issues = 'issues' in checked ? checked.issues : [];
        return { issues: [...issues, ...(checks.allowExpired ? [] : datesIssues)], warnings };
      }
      // An invoice the customer could not pay is held back like an invalid one, unless the merchant asks for it.
      if (datesIssues.length > 0 && !checks.allowExpired) {
        return { body, issues: [], warnings, held: { reason: 'dates', issues: datesIssues } };
      }
      const referenceless = body.businessReference === undefined;
      // Under --strict, what a person at a terminal would have looked at is not sent unattended.
      if (checks.strict && (toLookAt.length > 0 || referenceless)) {
        const issues = [
          ...toLookAt.map((warning) => ({ ...warning, message: `${warning.message} (--strict)` })),
          ...(referenceless ? [noReferenceUnderStrict] : []),
        ];
        // What strict refuses is told once, as the record's problem; the warnings left are the decided ones.
        const decided = warnings.filter((warning) => !toLookAt.includes(warning));
        return { body, issues: [], warnings: decided, held: { reason: 'warnings', issues } };
      }
      return { body, issues: [], warnings, expired, referenceless } satisfies RecordCheck;
    },
  };
}

/** Invoices to create, each checked by `checks` at the run's clock, and with what the ledger holds (`options`). */
export function invoiceKind(checks: Omit<InvoiceChecks, 'now' | 'datesAt'>, options: KindOptions = {}): BulkKind {
  return {
    sending: invoiceSending(checks.kind),
    checking: (clock) => invoiceChecking({ ...checks, ...clock }, options),
    columns: invoiceColumnsOf(checks.kind),
    words: invoiceWords(checks.kind),
  };
}

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}
