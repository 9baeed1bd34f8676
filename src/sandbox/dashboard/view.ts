import { directionRuns } from '../../schemas/text-direction.js';
import { customerMessages, merchantExpiryAlert } from '../notifications.js';
import { adminView } from '../routes/admin.js';
import type { OutboxMessage, StoredInvoice } from '../state.js';
import type { NewestFilter, StateView } from '../store.js';

/** A notification as the dashboard shows it: one the outbox holds (sent), or what the templates would send. */
export type DashboardMessage = OutboxMessage & { sent: boolean };

/**
 * What the dashboard shows, from one reading of the state: the clock, the statistics, and a page of the invoices
 * that pass `filter`, newest first by creation time (the demo's are dated in the past), each with its notifications,
 * and how many invoices pass it.
 */
export function dashboardView(state: StateView, now: Date, filter: NewestFilter) {
  const { invoices, matching } = state.newest(filter);
  const outbox = new Map<string, OutboxMessage[]>();
  for (const message of state.outbox(invoices.map((invoice) => invoice.invoiceNumber))) {
    const messages = outbox.get(message.invoiceNumber);
    if (messages) messages.push(message);
    else outbox.set(message.invoiceNumber, [message]);
  }
  return {
    now: now.toISOString(),
    statistics: state.statistics(),
    matching,
    invoices: invoices.map((invoice) => invoiceView(invoice, outbox.get(invoice.invoiceNumber) ?? [])),
  };
}

function invoiceView(invoice: StoredInvoice, sent: OutboxMessage[]) {
  // The body as received stays with the admin API; the page reads the validated invoice.
  const { request: _request, ...view } = adminView(invoice);
  const { customer, note, communicationLang, communicationMethod, alertMerchantUponExpiry, paymentType, items } =
    invoice.invoice;
  return {
    ...view,
    customer,
    note,
    communicationLang: communicationLang ?? 'en-gb',
    communicationMethod: communicationMethod ?? 'SMS',
    alertMerchantUponExpiry: alertMerchantUponExpiry ?? false,
    paymentType,
    items: items ?? [],
    messages: messagesOf(invoice, sent).map(withRuns),
  };
}

/**
 * A message with its text and subject also in runs of one direction, which the page shows each in its own element:
 * in an Arabic message, a date, an amount or a number then reads as one piece.
 */
function withRuns(message: DashboardMessage) {
  return {
    ...message,
    textRuns: directionRuns(message.text),
    ...(message.subject === undefined ? {} : { subjectRuns: directionRuns(message.subject) }),
  };
}

/**
 * The invoice's notifications: those in the outbox, else what the same templates would send. The customer's are
 * previewed while an unpaid invoice waits for its release date, and for the demo invoices (seeded issued, with an
 * empty outbox); the merchant's expiry alert while the invoice can still expire, or once it has.
 */
function messagesOf(invoice: StoredInvoice, sent: OutboxMessage[]): DashboardMessage[] {
  const messages: DashboardMessage[] = sent.map((message) => ({ ...message, sent: true }));
  const customerPreview =
    !sent.some((message) => message.to === 'customer') &&
    (invoice.issuedAt !== undefined || invoice.status === 'UNPAID');
  if (customerPreview) {
    const at = invoice.issuedAt ?? invoice.releaseDate;
    messages.push(...customerMessages(invoice, at).map((message) => ({ ...message, sent: false })));
  }
  const merchantPreview =
    invoice.invoice.alertMerchantUponExpiry === true &&
    !sent.some((message) => message.to === 'merchant') &&
    (invoice.status === 'UNPAID' || invoice.status === 'EXPIRED');
  if (merchantPreview) messages.push({ ...merchantExpiryAlert(invoice, invoice.expiryDate), sent: false });
  return messages;
}
