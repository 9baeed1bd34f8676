import type { Invoice, InvoiceKind } from '../schemas/invoice.js';
import { toMinorUnits } from '../schemas/money.js';
import { formatAmount } from '../schemas/number-text.js';
import type { Refund } from '../schemas/refund.js';
import { isSameInvoice } from '../schemas/same-invoice.js';
import { serviceErrorCodes } from '../schemas/service-error.js';
import { SandboxHttpError, invoiceNotFound } from './http.js';
import { incrementDigits, type StoredInvoice } from './state.js';
import type { StateDraft, StateView } from './store.js';

// What the service does to invoices: create, pay, cancel, refund. Each runs in a write transaction and throws a
// SandboxHttpError, changing nothing, when the invoice is not in a state that allows it.

/**
 * Rule 2.3.2: an earlier invoice (of either kind, in any status) with the same business reference, amount and
 * sending date. Invoices without a business reference are never duplicates.
 */
export function findDuplicate(state: StateView, invoice: Invoice): StoredInvoice | undefined {
  if (invoice.businessReference === undefined) return undefined;
  return state
    .sameReference(invoice.businessReference, invoice.sendingDate)
    .find((earlier) => isSameInvoice(earlier, invoice));
}

/**
 * The cycle of a recurring invoice, to record. The sandbox does not generate later cycles: how many the service
 * generates, and when, is not documented, and inventing it would make tests depend on guesses.
 */
export function cycleOf(invoice: Invoice): { cycle?: { cycleType: string; cycleValue: number } } {
  return invoice.cycleType !== undefined && invoice.cycleValue !== undefined
    ? { cycle: { cycleType: invoice.cycleType, cycleValue: invoice.cycleValue } }
    : {};
}

/** Hands out the next order reference number. */
export function takeOrderReference(state: StateDraft): string {
  const reference = state.counters().nextOrderReference;
  state.setCounters({ nextOrderReference: incrementDigits(reference) });
  return reference;
}

/** Records a new invoice under the next number; a duplicate is refused with 409 naming the existing number. */
export function createInvoice(
  state: StateDraft,
  kind: InvoiceKind,
  request: unknown,
  invoice: Invoice,
  now: Date,
): StoredInvoice {
  const duplicate = findDuplicate(state, invoice);
  if (duplicate) {
    throw new SandboxHttpError(
      409,
      serviceErrorCodes.duplicateInvoice,
      `This invoice is a duplicate of invoice ${duplicate.invoiceNumber}: it has the same businessReference ` +
        `'${invoice.businessReference}', amount and sendingDate.`,
      { invoiceNumber: duplicate.invoiceNumber },
    );
  }
  const invoiceNumber = state.counters().nextInvoiceNumber;
  state.setCounters({ nextInvoiceNumber: incrementDigits(invoiceNumber) });
  const stored: StoredInvoice = {
    invoiceNumber,
    kind,
    status: 'UNPAID',
    request,
    invoice,
    createdAt: now.toISOString(),
    amount: invoice.amount,
    ...(invoice.businessReference !== undefined ? { businessReference: invoice.businessReference } : {}),
    sendingDate: invoice.sendingDate,
    expiryDate: invoice.expiryDate,
    releaseDate: invoice.releaseDate,
    ...cycleOf(invoice),
    refunds: [],
  };
  // A customer who pays at a retail point needs the order reference number in the SMS, so it exists from the start.
  if (invoice.paymentType === 'PUSH_TO_SERVICE_PAY') {
    stored.orderReferenceNumber = takeOrderReference(state);
  }
  state.insertInvoice(stored);
  return stored;
}

/** The invoice numbered `invoiceNumber`, or a 404. */
export function findInvoice(state: StateView, invoiceNumber: string): StoredInvoice {
  const invoice = state.invoice(invoiceNumber);
  if (!invoice) throw invoiceNotFound(invoiceNumber);
  return invoice;
}

function requireUnpaid(invoice: StoredInvoice, action: string, status: number): void {
  if (invoice.status !== 'UNPAID') {
    throw new SandboxHttpError(
      status,
      serviceErrorCodes.invalidState,
      `Invoice ${invoice.invoiceNumber} is ${invoice.status}; only an UNPAID invoice can be ${action}.`,
    );
  }
}

/** Pays an unpaid invoice as its customer would; the payment produces its order reference number. */
export function payInvoice(state: StateDraft, invoiceNumber: string, now: Date): StoredInvoice {
  const invoice = findInvoice(state, invoiceNumber);
  requireUnpaid(invoice, 'paid', 409);
  invoice.status = 'PAID';
  invoice.paidAt = now.toISOString();
  invoice.orderReferenceNumber ??= takeOrderReference(state);
  state.saveInvoice(invoice);
  return invoice;
}

/** Cancels an unpaid invoice. */
export function cancelInvoice(state: StateDraft, invoiceNumber: string, now: Date): StoredInvoice {
  const invoice = findInvoice(state, invoiceNumber);
  requireUnpaid(invoice, 'canceled', 409);
  invoice.status = 'CANCELED';
  invoice.canceledAt = now.toISOString();
  state.saveInvoice(invoice);
  return invoice;
}

const rejected = (message: string) => new SandboxHttpError(400, serviceErrorCodes.refundRejected, message);

/**
 * Refunds a paid invoice: the order reference number must be its payment's and the amount at most the invoice's.
 * One refund (full or partial) moves the invoice to REFUNDED, so it cannot be refunded twice.
 */
export function refundInvoice(state: StateDraft, invoiceNumber: string, refund: Refund, now: Date): StoredInvoice {
  const invoice = findInvoice(state, invoiceNumber);
  if (invoice.status !== 'PAID') {
    throw new SandboxHttpError(
      400,
      serviceErrorCodes.invalidState,
      `Invoice ${invoiceNumber} is ${invoice.status}; only a PAID invoice can be refunded.`,
    );
  }
  if (refund.orderReferenceNumber !== invoice.orderReferenceNumber) {
    throw rejected(
      `The orderReferenceNumber '${refund.orderReferenceNumber}' is not the one of invoice ${invoiceNumber}'s payment.`,
    );
  }
  if (toMinorUnits(refund.amount) > toMinorUnits(invoice.amount)) {
    throw rejected(
      `The refund amount ${formatAmount(refund.amount)} is more than the amount of invoice ${invoiceNumber} ` +
        `(${formatAmount(invoice.amount)}).`,
    );
  }
  invoice.status = 'REFUNDED';
  invoice.refunds.push({
    amount: refund.amount,
    reason: refund.reason,
    orderReferenceNumber: refund.orderReferenceNumber,
    at: now.toISOString(),
  });
  state.saveInvoice(invoice);
  return invoice;
}
