import { notifiesByEmail, type communicationLangs } from '../schemas/enums.js';
import { formatAmount } from '../schemas/number-text.js';
import type { OutboxMessage, StoredInvoice } from './state.js';

// The texts of the SMS and e-mails the service sends: one template per channel and language, here only. The outbox
// (`GET /__sandbox/outbox`) and the dashboard both show what these write. The real wording is not documented; these
// say the same things in English or Arabic, following communicationLang.

/** The address the sandbox pretends the merchant's alerts go to. */
export const merchantAddress = 'merchant@sandbox.invalid';

/** Where a customer would pay an invoice online (a reserved, never-resolving domain). */
export function paymentLink(invoiceNumber: string): string {
  return `https://pay.sandbox.invalid/invoices/${invoiceNumber}`;
}

type CommunicationLang = (typeof communicationLangs)[number];

/** What the customer's templates say about an invoice, already written as text. */
interface MessageFacts {
  name: string;
  number: string;
  amount: string;
  note: string;
  payBy: string;
  /** Set when the customer pays at a retail point with the order reference number instead of a link. */
  orderReference?: string;
  /** The invoice's items, named in the message's language. */
  items: Array<{ name: string; quantity: number; price: string }>;
}

/** An e-mail: its subject and its body. */
interface Email {
  subject: string;
  text: string;
}

interface CustomerTemplates {
  sms(facts: MessageFacts): string;
  email(facts: MessageFacts): Email;
}

/** The customer's SMS and e-mail in each language of communicationLang. */
const customerTemplates: Record<CommunicationLang, CustomerTemplates> = {
  'en-gb': {
    sms: (f) =>
      `Hello ${f.name}, invoice ${f.number} for ${f.amount} (${f.note}) is ready. ` +
      (f.orderReference
        ? `Pay at any service retail point with order reference number ${f.orderReference} by ${f.payBy}.`
        : `Pay by ${f.payBy}: ${paymentLink(f.number)}`),
    email: (f) => ({
      subject: `Invoice ${f.number} for ${f.amount}`,
      text:
        `Hello ${f.name},\n\nYou have a new invoice for ${f.amount}: ${f.note}.\n` +
        f.items.map((item) => `• ${item.name} × ${item.quantity} at ${item.price}\n`).join('') +
        (f.orderReference
          ? `Pay at any service retail point with order reference number ${f.orderReference} by ${f.payBy}.`
          : `Pay online by ${f.payBy}: ${paymentLink(f.number)}`),
    }),
  },
  'ar-eg': {
    sms: (f) =>
      `مرحباً ${f.name}، فاتورتك رقم ${f.number} بمبلغ ${f.amount} (${f.note}) جاهزة. ` +
      (f.orderReference
        ? `ادفع في أي منفذ من منافذ الخدمة بالرقم المرجعي للطلب ${f.orderReference} قبل ${f.payBy}.`
        : `ادفع قبل ${f.payBy}: ${paymentLink(f.number)}`),
    email: (f) => ({
      subject: `فاتورة رقم ${f.number} بمبلغ ${f.amount}`,
      text:
        `مرحباً ${f.name}،\n\nلديك فاتورة جديدة بمبلغ ${f.amount}: ${f.note}.\n` +
        f.items.map((item) => `• ${item.name} × ${item.quantity} بسعر ${item.price}\n`).join('') +
        (f.orderReference
          ? `ادفع في أي منفذ من منافذ الخدمة بالرقم المرجعي للطلب ${f.orderReference} قبل ${f.payBy}.`
          : `ادفع عبر الإنترنت قبل ${f.payBy}: ${paymentLink(f.number)}`),
    }),
  },
};

/** The merchant's e-mail when an invoice that asked for it expires (always in English). */
function merchantExpiryTemplate(invoice: StoredInvoice): Email {
  return {
    subject: `Invoice ${invoice.invoiceNumber} expired unpaid`,
    text:
      `Invoice ${invoice.invoiceNumber} to ${invoice.invoice.customer.name} for ${formatAmount(invoice.amount)} ` +
      `expired on ${invoice.expiryDate} without being paid.`,
  };
}

/** The messages the customer receives when an invoice is issued, per communicationMethod (default SMS). */
export function customerMessages(invoice: StoredInvoice, at: string): OutboxMessage[] {
  const { customer, communicationMethod = 'SMS', communicationLang = 'en-gb', note, items = [] } = invoice.invoice;
  const paysAtRetailPoint = invoice.invoice.paymentType === 'PUSH_TO_SERVICE_PAY';
  const facts: MessageFacts = {
    name: customer.name,
    number: invoice.invoiceNumber,
    amount: formatAmount(invoice.amount),
    note,
    payBy: invoice.expiryDate.slice(0, 10),
    orderReference: paysAtRetailPoint ? invoice.orderReferenceNumber : undefined,
    items: items.map((item) => ({
      name: communicationLang === 'ar-eg' ? item.nameAr : item.nameEn,
      quantity: item.purchasedQuantity,
      price: formatAmount(item.price),
    })),
  };
  const templates = customerTemplates[communicationLang];
  const base = { to: 'customer', lang: communicationLang, invoiceNumber: invoice.invoiceNumber, at } as const;
  const messages: OutboxMessage[] = [];
  if (communicationMethod === 'SMS' || communicationMethod === 'BOTH') {
    messages.push({ ...base, channel: 'SMS', address: customer.mobile, text: templates.sms(facts) });
  }
  if (notifiesByEmail(communicationMethod) && customer.email) {
    messages.push({ ...base, channel: 'EMAIL', address: customer.email, ...templates.email(facts) });
  }
  return messages;
}

/** The e-mail the merchant receives when an invoice that asked for it expires. */
export function merchantExpiryAlert(invoice: StoredInvoice, at: string): OutboxMessage {
  return {
    to: 'merchant',
    channel: 'EMAIL',
    address: merchantAddress,
    lang: 'en-gb',
    invoiceNumber: invoice.invoiceNumber,
    at,
    ...merchantExpiryTemplate(invoice),
  };
}
