import { customerMessages, merchantExpiryAlert } from './notifications.js';
import type { SandboxState, StoredInvoice } from './state.js';

// Time-driven transitions. They run on every request and every clock change, so an invoice's release and expiry
// happen "when the clock passes them" even though nothing runs in between.

function isDueForRelease(invoice: StoredInvoice, nowMs: number): boolean {
  const releaseMs = Date.parse(invoice.releaseDate);
  // An invoice that expires before (or when) it is released is never issued.
  return (
    invoice.status === 'UNPAID' &&
    invoice.issuedAt === undefined &&
    releaseMs <= nowMs &&
    releaseMs < Date.parse(invoice.expiryDate)
  );
}

function isDueForExpiry(invoice: StoredInvoice, nowMs: number): boolean {
  return invoice.status === 'UNPAID' && Date.parse(invoice.expiryDate) <= nowMs;
}

/** True when `tick` would change something, so a read-only request can skip taking the lock. */
export function needsTick(state: SandboxState, now: Date): boolean {
  const nowMs = now.getTime();
  return state.invoices.some((invoice) => isDueForRelease(invoice, nowMs) || isDueForExpiry(invoice, nowMs));
}

/**
 * Issues the invoices whose release date has passed (notifying the customer) and expires the unpaid invoices
 * whose expiry date has passed (alerting the merchant when asked). Messages carry the time the event happened.
 * Returns the numbers of the invoices that expired.
 */
export function tick(state: SandboxState, now: Date): string[] {
  const nowMs = now.getTime();
  const expired: string[] = [];
  for (const invoice of state.invoices) {
    if (isDueForRelease(invoice, nowMs)) {
      const issuedAt = new Date(Math.max(Date.parse(invoice.createdAt), Date.parse(invoice.releaseDate)));
      invoice.issuedAt = issuedAt.toISOString();
      state.outbox.push(...customerMessages(invoice, invoice.issuedAt));
    }
    if (isDueForExpiry(invoice, nowMs)) {
      invoice.status = 'EXPIRED';
      invoice.expiredAt = invoice.expiryDate;
      if (invoice.invoice.alertMerchantUponExpiry) state.outbox.push(merchantExpiryAlert(invoice, invoice.expiryDate));
      expired.push(invoice.invoiceNumber);
    }
  }
  return expired;
}
