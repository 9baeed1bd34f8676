import { customerMessages, merchantExpiryAlert } from './notifications.js';
import type { SandboxState, StoredInvoice } from './state.js';

// Time-driven transitions. They run on every request and every clock change, so an invoice's release and expiry
// happen "when the clock passes them" even though nothing runs in between.

// Dates are compared as text: the schema fixes them to the shape YYYY-MM-DDThh:mm:ss.sssZ, whose text order is time
// order. These checks run over every invoice on every request, and parsing dates there made long runs quadratic.

function isDueForRelease(invoice: StoredInvoice, nowIso: string): boolean {
  // An invoice that expires before (or when) it is released is never issued.
  return (
    invoice.status === 'UNPAID' &&
    invoice.issuedAt === undefined &&
    invoice.releaseDate <= nowIso &&
    invoice.releaseDate < invoice.expiryDate
  );
}

function isDueForExpiry(invoice: StoredInvoice, nowIso: string): boolean {
  return invoice.status === 'UNPAID' && invoice.expiryDate <= nowIso;
}

/** True when `tick` would change something, so a read-only request can skip taking the lock. */
export function needsTick(state: SandboxState, now: Date): boolean {
  const nowIso = now.toISOString();
  return state.invoices.some((invoice) => isDueForRelease(invoice, nowIso) || isDueForExpiry(invoice, nowIso));
}

/**
 * Issues the invoices whose release date has passed (notifying the customer) and expires the unpaid invoices
 * whose expiry date has passed (alerting the merchant when asked). Messages carry the time the event happened.
 * Returns the numbers of the invoices that expired.
 */
export function tick(state: SandboxState, now: Date): string[] {
  const nowIso = now.toISOString();
  const expired: string[] = [];
  for (const invoice of state.invoices) {
    if (isDueForRelease(invoice, nowIso)) {
      const issuedAt = new Date(Math.max(Date.parse(invoice.createdAt), Date.parse(invoice.releaseDate)));
      invoice.issuedAt = issuedAt.toISOString();
      state.outbox.push(...customerMessages(invoice, invoice.issuedAt));
    }
    if (isDueForExpiry(invoice, nowIso)) {
      invoice.status = 'EXPIRED';
      invoice.expiredAt = invoice.expiryDate;
      if (invoice.invoice.alertMerchantUponExpiry) state.outbox.push(merchantExpiryAlert(invoice, invoice.expiryDate));
      expired.push(invoice.invoiceNumber);
    }
  }
  return expired;
}
