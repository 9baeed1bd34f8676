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

/** The service's answer to a create: a number, no answer known, or a refusal; `not-created` is the merchant's word. */
export type InvoiceStatus = 'created' | 'uncertain' | 'refused' | 'not-created';

/** The service's answer to a refund; `not-refunded` is the merchant's word on an uncertain one. */
export type RefundStatus = 'refunded' | 'uncertain' | 'refused' | 'not-refunded';

/** What every step of a request the ledger records says besides its answer. */
interface StepFacts {
  /** Unique to this request (a journal's record, or one command's), the same however often its journal is imported. */
  key: string;
  /** When the request was sent (an ISO instant): the attempt whose answer this is. */
  sentAt: string;
  /** When this step was taken, if later than the attempt: the merchant's word on it. */
  at?: string;
  /** The status is the merchant's word, not the service's answer. */
  marked?: boolean;
  /** The sandbox state that answered (a sandbox numbers its invoices anew after a reset); none for the service. */
  sandboxState?: string;
}

/** An invoice einvoice asked the service to create. */
export interface InvoiceEntry extends StepFacts {
  type: 'invoice';
  kind: 'single' | 'recurring';
  status: InvoiceStatus;
  invoiceNumber?: string;
  /** The request's body as sent, as JSON text. */
  bodyJson: string;
  /** The same body parsed, when the caller has it: the ledger then does not parse the text again. */
  body?: Record<string, unknown>;
  currency?: string;
  /** The service answered that it already held it (a request sent again). */
  alreadyExisted?: boolean;
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
export interface RefundEntry extends StepFacts {
  type: 'refund';
  invoiceNumber: string;
  status: RefundStatus;
  /** The refund's body as sent (amount, reason, orderReferenceNumber), as JSON text. */
  bodyJson: string;
  /** The same body parsed, when the caller has it: the ledger then does not parse the text again. */
  body?: Record<string, unknown>;
  currency?: string;
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
