import { customerMessages, merchantExpiryAlert } from './notifications.js';
import type { StoredInvoice } from './state.js';
import type { StateDraft, StateView } from './store.js';

// Time-driven transitions. They run on every request and every clock change, so an invoice's release and expiry
// happen "when the clock passes them" even though nothing runs in between.

// Dates are compared as text: the schema fixes them to the shape YYYY-MM-DDThh:mm:ss.sssZ, whose text order is time
// order, so the database's indexes find the invoices due without reading the others.

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

/** True when `tick` would change something, so a read-only request need not write. */
export function needsTick(state: StateView, now: Date): boolean {
  return state.due(now.toISOString(), 1).length > 0;
}

/**
 * Issues the invoices whose release date has passed (notifying the customer) and expires the unpaid invoices
 * whose expiry date has passed (alerting the merchant when asked). Messages carry the time the event happened.
 * Returns the numbers of the invoices that expired.
 */
export function tick(state: StateDraft, now: Date): string[] {
  const nowIso = now.toISOString();
  const expired: string[] = [];
  for (const invoice of state.due(nowIso)) {
    if (isDueForRelease(invoice, nowIso)) {
      const issuedAt = new Date(Math.max(Date.parse(invoice.createdAt), Date.parse(invoice.releaseDate)));
      invoice.issuedAt = issuedAt.toISOString();
      state.addMessages(customerMessages(invoice, invoice.issuedAt));
    }
    if (isDueForExpiry(invoice, nowIso)) {
      invoice.status = 'EXPIRED';
      invoice.expiredAt = invoice.expiryDate;
      if (invoice.invoice.alertMerchantUponExpiry) {
        state.addMessages([merchantExpiryAlert(invoice, invoice.expiryDate)]);
      }
      expired.push(invoice.invoiceNumber);
    }
    state.saveInvoice(invoice);
  }
  return expired;
}
