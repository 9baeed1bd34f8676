import { randomUUID } from 'node:crypto';
import type { Invoice, InvoiceKind } from '../schemas/invoice.js';
import type { SandboxInvoiceStatus, SandboxOutboxMessage } from '../schemas/sandbox-admin.js';

// The sandbox's state as JSON: what `sandbox export` prints and what a new state starts from. The sandbox itself
// keeps it in a database (store.ts).

export type InvoiceStatus = SandboxInvoiceStatus;

/** A refund the sandbox accepted. */
export interface RefundRecord {
  amount: number;
  reason: string;
  orderReferenceNumber: string;
  at: string;
}

/** An invoice as the sandbox keeps it. */
export interface StoredInvoice {
  invoiceNumber: string;
  kind: InvoiceKind;
  status: InvoiceStatus;
  /** The request body exactly as received (parsed JSON, before the schema's transforms). */
  request: unknown;
  /** The request after validation: trimmed text, booleans for "true"/"false", and so on. */
  invoice: Invoice;
  createdAt: string;
  amount: number;
  businessReference?: string;
  sendingDate: string;
  expiryDate: string;
  releaseDate: string;
  /** Recorded for recurring invoices only; the sandbox does not generate later cycles. */
  cycle?: { cycleType: string; cycleValue: number };
  /** Set by payment, or at creation for PUSH_TO_SERVICE_PAY (the customer pays with it at a retail point). */
  orderReferenceNumber?: string;
  /** When the customer was notified; absent until the release date has passed. */
  issuedAt?: string;
  paidAt?: string;
  canceledAt?: string;
  expiredAt?: string;
  refunds: RefundRecord[];
}

/** An SMS or e-mail the service would have sent. */
export type OutboxMessage = SandboxOutboxMessage;

/** A token issued through the admin API; it expires by sandbox time. */
export interface IssuedToken {
  token: string;
  expiresAt: string;
}

export interface SandboxState {
  version: 1;
  /**
   * Names this state: a reset (or a new sandbox) makes a new one, whose invoice numbers start again. Said with each
   * answer to a create or a refund (`einvoice-sandbox-state`), so that a client keeps the numbers of two states apart.
   */
  stateId?: string;
  /** Decimal digits, kept as text so numbers past 2^53 stay exact. */
  nextInvoiceNumber: string;
  nextOrderReference: string;
  /** Sandbox time = real time + this offset. */
  clockOffsetMs: number;
  invoices: StoredInvoice[];
  outbox: OutboxMessage[];
  tokens: IssuedToken[];
}

/** The first order reference number handed out by a new state. */
export const firstOrderReference = '3712350';

/** A state with no invoices, numbering from `firstInvoiceNumber`. */
export function emptyState(firstInvoiceNumber: string): SandboxState {
  return {
    version: 1,
    stateId: newStateId(),
    nextInvoiceNumber: firstInvoiceNumber,
    nextOrderReference: firstOrderReference,
    clockOffsetMs: 0,
    invoices: [],
    outbox: [],
    tokens: [],
  };
}

/** A new state's name. */
export function newStateId(): string {
  return randomUUID();
}

/** The next number of a decimal counter kept as text. */
export function incrementDigits(digits: string): string {
  return (BigInt(digits) + 1n).toString();
}
