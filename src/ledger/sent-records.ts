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
  /** The service made it, may have, or refused it; or, the merchant's word on an uncertain one, it was not made. */
  outcome: 'made' | 'uncertain' | 'refused' | 'not-made';
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

function invoiceEntry(kind: InvoiceEntry['kind'], record: SentRecord): InvoiceEntry {
  const { body, outcome } = record;
  return {
    type: 'invoice',
    ...record.common,
    kind,
    status: outcome === 'made' ? 'created' : outcome === 'uncertain' ? 'uncertain' : 'refused',
    ...(record.invoiceNumber !== undefined ? { invoiceNumber: record.invoiceNumber } : {}),
    bodyJson: record.bodyJson ?? JSON.stringify(body),
    body,
    ...(outcome === 'made' ? {} : { error: record.error }),
    ...(record.alreadyExisted ? { decided: 'the service already held it when it was sent again' } : {}),
    ...(body.businessReference === undefined ? { contentKey: journalContentKey(record.recordKey) } : {}),
  };
}

/** A refund's entry: the invoice it refunds, and the rest of its body as the request's. */
function refundEntry(record: SentRecord): RefundEntry {
  const { invoiceNumber, ...refund } = record.body;
  const { outcome } = record;
  return {
    type: 'refund',
    ...record.common,
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
    ...(outcome === 'made' ? {} : { error: record.error }),
    ...(outcome === 'not-made' ? { decided: 'not refunded, as the merchant said' } : {}),
  };
}
