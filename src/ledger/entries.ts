import { toMinorUnits } from '../schemas/money.js';

// What the ledger records of each request einvoice sent: the service's answer, the request as sent, and where it came
// from. Amounts are kept in exact minor units (hundredths), as the money rules have them.

/** Where a request came from. */
export interface LedgerSource {
  /** How it was given: flags, prompts, a file of one invoice, a bulk run, or a journal imported later. */
  via: 'flags' | 'prompts' | 'file' | 'bulk' | 'import';
  /** The file it was read from (--file), if any. */
  file?: string;
  /** Its line (NDJSON, JSON array) or row (CSV) in that file. */
  line?: number;
  /** The journal of the bulk run that sent it. */
  journal?: string;
  /** The batch it belongs to: the id of its journal, the same on every machine it is imported on. */
  run?: string;
}

/** The service's answer to a create: a number, no answer known, or a refusal. */
export type InvoiceStatus = 'created' | 'uncertain' | 'refused';

/** The service's answer to a refund; `not-refunded` is the merchant's word on an uncertain one. */
export type RefundStatus = 'refunded' | 'uncertain' | 'refused' | 'not-refunded';

/** An invoice einvoice asked the service to create. */
export interface InvoiceEntry {
  type: 'invoice';
  /** Unique to this request, and the same however often its journal is imported. */
  key: string;
  kind: 'single' | 'recurring';
  status: InvoiceStatus;
  invoiceNumber?: string;
  /** The request's body as sent, as JSON text. */
  bodyJson: string;
  /** The same body parsed, when the caller has it: the ledger then does not parse the text again. */
  body?: Record<string, unknown>;
  currency?: string;
  /** When the request was sent (an ISO instant). */
  sentAt: string;
  /** Why it is uncertain or refused. */
  error?: string;
  /** What the merchant (or a later run) decided about an uncertain one. */
  decided?: string;
  source: LedgerSource;
  /** The service it went to (its base URL, or the built-in sandbox). */
  service?: string;
  /** For a body without a businessReference: a hash of its content, to find the same invoice sent again. */
  contentKey?: string;
}

/** A refund einvoice asked the service to make. */
export interface RefundEntry {
  type: 'refund';
  key: string;
  invoiceNumber: string;
  status: RefundStatus;
  /** The refund's body as sent (amount, reason, orderReferenceNumber), as JSON text. */
  bodyJson: string;
  /** The same body parsed, when the caller has it: the ledger then does not parse the text again. */
  body?: Record<string, unknown>;
  currency?: string;
  sentAt: string;
  error?: string;
  decided?: string;
  source: LedgerSource;
  service?: string;
}

export type LedgerEntry = InvoiceEntry | RefundEntry;

/** The columns the ledger files and filters an invoice's body by. */
export interface InvoiceFields {
  businessReference: string | null;
  customerName: string | null;
  customerMobile: string | null;
  customerEmail: string | null;
  amountMinor: number | null;
  sendingDate: string | null;
  expiryDate: string | null;
}

/** The fields of an invoice's body the ledger lists and filters by. */
export function invoiceFields(body: Record<string, unknown>): InvoiceFields {
  const customer = (typeof body.customer === 'object' && body.customer !== null ? body.customer : {}) as Record<
    string,
    unknown
  >;
  return {
    businessReference: textOf(body.businessReference),
    customerName: textOf(customer.name),
    customerMobile: textOf(customer.mobile),
    customerEmail: textOf(customer.email),
    amountMinor: minorOf(body.amount),
    sendingDate: textOf(body.sendingDate),
    expiryDate: textOf(body.expiryDate),
  };
}

/** An amount of a body in minor units; null when it is not an amount (the body is kept whole either way). */
export function minorOf(amount: unknown): number | null {
  const value = typeof amount === 'string' ? Number(amount) : amount;
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  try {
    return Number(toMinorUnits(value));
  } catch {
    return null;
  }
}

function textOf(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
