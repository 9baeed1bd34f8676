import type { ServiceClient } from '../api/client.js';
import type { InvoiceKind } from '../schemas/invoice.js';
import type { RefundRecord } from '../schemas/refund.js';
import type { FieldIssue } from '../errors.js';
import type { ColumnSet } from '../sheet/index.js';
import type { RefundStanding } from '../schemas/refund-standing.js';

// What the engine of a run over a file needs to know of a kind of record (an invoice to create, a refund): how to
// check one, what it may hold only once, the request it makes, and whether one the service may have taken can ever
// be sent again.

/** The name of a kind of record, as a journal binds itself to one: an invoice's kind, or `refund`. */
export type RecordKindName = InvoiceKind | 'refund';

/**
 * How a kind of record speaks of itself, as plain data: the outputs read it from what a run hands them (its
 * summary), so no code outside the kind asks which kind it is.
 */
export interface KindWords {
  /**
   * The field a record names itself by, which the service refuses a second record of (an invoice's
   * businessReference, rule 2.3): a file repeating it holds duplicates, a report shows it, and the service may hold a
   * record by it already. None for a refund.
   */
  readonly reference?: string;
  /** One record, as a count names it: `single invoice record`, `refund`. */
  readonly record: string;
  /** The records of a file, as a sentence names them: `invoice records`, `refunds`. */
  readonly records: string;
  /** One record among the file's: `record` (`2 of 10 records`), `refund`. */
  readonly ofFile: string;
  /** What the service did with one, as the summary counts it and a report's status says: `created`, `refunded`. */
  readonly done: string;
  /** What a run did, or did not, do with one: `created`, `made` (`was not made`). */
  readonly made: string;
  /** What a rerun does with the failed ones, as the summary notes it. */
  readonly retry: string;
  /** The command that sends a file of them: a JUnit report's name, the owner of a journal. */
  readonly command: string;
  /**
   * What the merchant's word names a record by (`--mark-refunded INVOICE`, `--mark-created ROW`): the invoice it is
   * of, or its row (its line, in a file of lines).
   */
  readonly markedBy: 'invoice' | 'row';
}

/** The service's operations a run sends with. */
export type KindClient = Pick<ServiceClient, 'createInvoiceJson' | 'refundInvoice'>;

/** A kind of record a bulk run sends: an invoice to create, or a refund. */
export interface SendingKind {
  /** The journal's name of the kind (`single`, `recurring`, `refund`): a journal serves one kind only. */
  readonly name: RecordKindName;
  /**
   * Sends one record's body, as journaled; resolves to the invoice number the record is known by, and the sandbox's
   * state when the answer names one.
   */
  send(client: KindClient, bodyJson: string): Promise<{ invoiceNumber: string; sandboxState?: string }>;
  /**
   * Whether a record with a businessReference may be sent again after a request the service may have taken (the
   * service refuses a second invoice with it, rule 2.3). A refund has no such key: it never is.
   */
  readonly resendableByReference: boolean;
}

/** Creating single or recurring invoices. */
export function invoiceSending(kind: InvoiceKind): SendingKind {
  return {
    name: kind,
    send: (client, bodyJson) => client.createInvoiceJson(kind, bodyJson),
    resendableByReference: true,
  };
}

/** Refunding paid invoices: the spec gives a refund no idempotency key, so one that may have left is never resent. */
export const refundSending: SendingKind = {
  name: 'refund',
  send: async (client, bodyJson) => {
    const { invoiceNumber, ...refund } = JSON.parse(bodyJson) as RefundRecord;
    return { invoiceNumber, ...(await client.refundInvoice(invoiceNumber, refund)) };
  },
  resendableByReference: false,
};

/** A record as sent: a JSON object, with the businessReference that makes a resend safe, if it has one. */
export type SentBody = Record<string, unknown> & { businessReference?: unknown };

/** One record checked by its kind. */
export interface RecordCheck {
  /** The body to send; absent when the record is invalid. */
  body?: SentBody;
  /** Why the record is invalid (with no body). */
  issues: FieldIssue[];
  /** What to look at in the record, whatever becomes of it. */
  warnings: FieldIssue[];
  /** A valid body held back like an invalid one: for its dates, or its warnings (strict). */
  held?: { reason: 'dates' | 'warnings'; issues: FieldIssue[] };
  /** Sent although its expiry has passed (allowed by the merchant). */
  expired?: boolean;
  /** Sent without a businessReference, which only its journal can tell apart from a copy. */
  referenceless?: boolean;
}

/** What a plan needs to know of a kind of record (an invoice to create, a refund) to check it. */
export interface CheckingKind {
  /** The kind's name, part of every record's content key. */
  readonly name: string;
  /** How the kind speaks of itself. */
  readonly words: KindWords;
  /** The reference a record gives itself, which the service refuses a second record of (none for a refund). */
  ownReference(record: Record<string, unknown>): string | undefined;
  /**
   * Checks one record of the file (`recordNumber` from 1, `content` its canonical JSON); `sentBefore` is the body an
   * earlier run sent without learning the outcome, sent again as it was.
   */
  check(
    record: Record<string, unknown>,
    recordNumber: number,
    content: () => string,
    sentBefore?: Record<string, unknown>,
  ): RecordCheck;
  /**
   * What a file may hold only once: its key, and whether a repeat is a `duplicate` not sent (rule 2.3.2) or
   * `invalid`, with the words that name the earlier record (`... as row 3`).
   */
  sameAs(body: SentBody): { key: string; repeat: 'duplicate' | 'invalid'; why: string; field?: string } | undefined;
  /** The invoice number a record is about before it is sent (a refund's), for the report. */
  numberOf?(body: SentBody): string;
  /**
   * How the merchant's word names a record an earlier run sent (`--mark-refunded INVOICE`, `--mark-created ROW`):
   * the invoice a refund is of, the row (or line) an invoice was read from.
   */
  markName(record: { body?: SentBody; record?: number; line?: number; invoiceNumber?: string }): string | undefined;
  /** The amount a record moves, for the run's total (a refund's). */
  amountOf?(body: SentBody): number;
  /** The name a record reaches its customer by (an invoice's customer.name), of which a dry run shows a few. */
  nameOf?(body: SentBody): string | undefined;
  /** A body sent before with an unknown outcome may be sent again: the service refuses a second copy of it. */
  resendable(body: SentBody): boolean;
}

/**
 * What the merchant's ledger holds, as a kind asks it while checking each record: plain answers the command reads
 * from the ledger, which the engine never opens. Each question is optional, and a kind asks those it needs.
 */
export interface LedgerLookup {
  /**
   * The invoice another run sent whose record had the same content (the `contentHash()` of the kind's name and the
   * record as its file gives it), if the ledger holds one.
   */
  sameContent?(contentKey: string): SentInvoice | undefined;
  /** What the ledger holds of the invoice a refund is of (in the numbering the service answers in now). */
  refundStanding?(invoiceNumber: string): RefundStanding;
}

/** An invoice the ledger holds: the number the service gave it, when it was sent, and the journal that sent it. */
export interface SentInvoice {
  invoiceNumber: string | null;
  sentAt: string;
  journal: string | null;
}

/** What a kind of record may be given beside its own rules. */
export interface KindOptions {
  /** The merchant's ledger, as answers to the kind's questions; absent when the ledger is off. */
  ledger?: LedgerLookup;
}

/** A kind of record as a run works with it: how each is checked (at the run's clock), sent, and read from a sheet. */
export interface BulkKind {
  sending: SendingKind;
  /** The checks of a run whose relative dates resolve at `now`, and whose expiries must be after `datesAt`. */
  checking(clock: { now: Date; datesAt: Date }): CheckingKind;
  /** The columns a sheet of the kind may have. */
  columns: ColumnSet;
  /** How the kind speaks of itself: its words, the field its records name themselves by, its command. */
  words: KindWords;
}
