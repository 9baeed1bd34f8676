import type { RecordKindName } from '../bulk/index.js';
import type { InvoiceEntry, LedgerEntry, RefundEntry } from './entries.js';

// What the ledger keeps of a record a bulk run sent, told by the run as it hears each outcome or by its journal
// imported later: the same entry, keyed the same, so an import of a journal the run recorded changes nothing.

/** A record of a bulk run whose request left, as the run or its journal tells it. */
export interface SentRecord {
  /** What every entry holds: its key in the ledger, when it was sent, where it came from, the service. */
  common: Pick<LedgerEntry, 'key' | 'sentAt' | 'currency' | 'source' | 'service'>;
  /** The journal's key of the record (a hash of its content first, for one without a businessReference). */
  recordKey: string;
  /** The record's body as sent, and its text as journaled when the caller has it. */
  body: Record<string, unknown>;
  bodyJson?: string;
  /** The service made it, may have, or refused it; or, `marked`, the merchant's word that it was made or not. */
  outcome: 'made' | 'uncertain' | 'refused' | 'not-made';
  /** The outcome is the merchant's word (`--mark-...`), given at `at`, not the service's answer. */
  marked?: boolean;
  at?: string;
  /** The sandbox state that answered (its numbers start again after a reset). */
  sandboxState?: string;
  /** Why it is uncertain or not made. */
  error?: string;
  /** The number the service created an invoice as. */
  invoiceNumber?: string;
  /** The service already held it when it was sent again. */
  alreadyExisted?: boolean;
}

/** What the ledger keeps of each kind of journal's records, and what it calls them. */
const keptAs: Readonly<Record<RecordKindName, { entry(record: SentRecord): LedgerEntry; noun: string }>> = {
  single: { entry: (record) => invoiceEntry('single', record), noun: 'invoices' },
  recurring: { entry: (record) => invoiceEntry('recurring', record), noun: 'invoices' },
  refund: { entry: refundEntry, noun: 'refunds' },
};

/** The ledger's entry of a record that a journal of `kind` sent. */
export function ledgerEntryOf(kind: RecordKindName, record: SentRecord): LedgerEntry {
  return keptAs[kind].entry(record);
}

/** What the ledger calls the records a journal of `kind` sent: `invoices`, `refunds`. */
export function sentNoun(kind: RecordKindName): string {
  return keptAs[kind].noun;
}

/** The ledger's key of a journal's record. */
export function journalRecordKey(journalId: string, recordKey: string): string {
  return `journal:${journalId}:${recordKey}`;
}

/**
 * The content key of a journal's record without a businessReference: the hash of the record as the file gave it, which
 * its journal key begins with (a repeat of the same content adds `.1`, `.2`).
 */
export function journalContentKey(recordKey: string): string {
  return recordKey.split('.')[0] as string;
}

/** What every step of a request says beyond its answer: when the merchant's word was given, the sandbox's state. */
function stepOf(record: SentRecord, words: { made: string; notMade: string }) {
  return {
    ...record.common,
    ...(record.at !== undefined && record.at !== record.common.sentAt ? { at: record.at } : {}),
    ...(record.sandboxState !== undefined ? { sandboxState: record.sandboxState } : {}),
    ...(record.outcome === 'made' ? {} : { error: record.error }),
    ...(record.marked
      ? {
          marked: true,
          decided: `${record.outcome === 'made' ? words.made : words.notMade}, as the merchant said`,
        }
      : {}),
  };
}

function invoiceEntry(kind: InvoiceEntry['kind'], record: SentRecord): InvoiceEntry {
  const { body, outcome } = record;
  return {
    type: 'invoice',
    ...stepOf(record, { made: 'created', notMade: 'not created' }),
    kind,
    status:
      outcome === 'made'
        ? 'created'
        : outcome === 'uncertain'
          ? 'uncertain'
          : outcome === 'not-made'
            ? 'not-created'
            : 'refused',
    ...(record.invoiceNumber !== undefined ? { invoiceNumber: record.invoiceNumber } : {}),
    bodyJson: record.bodyJson ?? JSON.stringify(body),
    body,
    ...(record.alreadyExisted ? { alreadyExisted: true } : {}),
    ...(body.businessReference === undefined ? { contentKey: journalContentKey(record.recordKey) } : {}),
  };
}

/** A refund's entry: the invoice it refunds, and the rest of its body as the request's. */
function refundEntry(record: SentRecord): RefundEntry {
  const { invoiceNumber, ...refund } = record.body;
  const { outcome } = record;
  return {
    type: 'refund',
    ...stepOf(record, { made: 'refunded', notMade: 'not refunded' }),
    invoiceNumber: String(invoiceNumber),
    status:
      outcome === 'made'
        ? 'refunded'
        : outcome === 'uncertain'
          ? 'uncertain'
          : outcome === 'not-made'
            ? 'not-refunded'
            : 'refused',
    bodyJson: JSON.stringify(refund),
    body: refund,
  };
}
