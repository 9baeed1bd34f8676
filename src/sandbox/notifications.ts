import type { OutboxMessage, StoredInvoice } from './state.js';

// The texts of the SMS and e-mails the service sends. The real wording is not documented; these say the same
// things in English or Arabic, following communicationLang.

/** The address the sandbox pretends the merchant's alerts go to. */
export const merchantAddress = 'merchant@sandbox.invalid';

/** Where a customer would pay an invoice online (a reserved, never-resolving domain). */
export function paymentLink(invoiceNumber: string): string {
  return `https://pay.sandbox.invalid/invoices/${invoiceNumber}`;
}

/** Writes an amount with thousands separators and two decimals: 1250 -> "1,250.00". */
export function formatAmount(amount: number): string {
  const minor = Math.round(amount * 100);
  const whole = Math.floor(minor / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${whole}.${String(minor % 100).padStart(2, '0')}`;
}

interface MessageFacts {
  name: string;
  number: string;
  amount: string;
  note: string;
  payBy: string;
  /** Set when the customer pays at a retail point with the order reference number instead of a link. */
  orderReference?: string;
}

const english = {
  sms: (f: MessageFacts) =>
    `Hello ${f.name}, invoice ${f.number} for ${f.amount} (${f.note}) is ready. ` +
    (f.orderReference
      ? `Pay at any service retail point with order reference number ${f.orderReference} by ${f.payBy}.`
      : `Pay by ${f.payBy}: ${paymentLink(f.number)}`),
  email: (f: MessageFacts) =>
    `Subject: Invoice ${f.number} for ${f.amount}\n\nHello ${f.name},\n\nYou have a new invoice for ${f.amount}: ${f.note}.\n` +
    (f.orderReference
      ? `Pay at any service retail point with order reference number ${f.orderReference} by ${f.payBy}.`
      : `Pay online by ${f.payBy}: ${paymentLink(f.number)}`),
};

const arabic = {
  sms: (f: MessageFacts) =>
    `مرحباً ${f.name}، فاتورتك رقم ${f.number} بمبلغ ${f.amount} (${f.note}) جاهزة. ` +
    (f.orderReference
      ? `ادفع في أي منفذ من منافذ الخدمة بالرقم المرجعي للطلب ${f.orderReference} قبل ${f.payBy}.`
      : `ادفع قبل ${f.payBy}: ${paymentLink(f.number)}`),
  email: (f: MessageFacts) =>
    `الموضوع: فاتورة رقم ${f.number} بمبلغ ${f.amount}\n\nمرحباً ${f.name}،\n\nلديك فاتورة جديدة بمبلغ ${f.amount}: ${f.note}.\n` +
    (f.orderReference
      ? `ادفع في أي منفذ من منافذ الخدمة بالرقم المرجعي للطلب ${f.orderReference} قبل ${f.payBy}.`
      : `ادفع عبر الإنترنت قبل ${f.payBy}: ${paymentLink(f.number)}`),
};

/** The messages the customer receives when an invoice is issued, per communicationMethod (default SMS). */
export function customerMessages(invoice: StoredInvoice, at: string): OutboxMessage[] {
  const { customer, communicationMethod = 'SMS', communicationLang = 'en-gb', note } = invoice.invoice;
  const paysAtRetailPoint = invoice.invoice.paymentType === 'PUSH_TO_SERVICE_PAY';
  const facts: MessageFacts = {
    name: customer.name,
    number: invoice.invoiceNumber,
    amount: formatAmount(invoice.amount),
    note,
    payBy: invoice.expiryDate.slice(0, 10),
    orderReference: paysAtRetailPoint ? invoice.orderReferenceNumber : undefined,
  };
  const texts = communicationLang === 'ar-eg' ? arabic : english;
  const base = { to: 'customer', lang: communicationLang, invoiceNumber: invoice.invoiceNumber, at } as const;
  const messages: OutboxMessage[] = [];
  if (communicationMethod === 'SMS' || communicationMethod === 'BOTH') {
    messages.push({ ...base, channel: 'SMS', address: customer.mobile, text: texts.sms(facts) });
  }
  if ((communicationMethod === 'EMAIL' || communicationMethod === 'BOTH') && customer.email) {
    messages.push({ ...base, channel: 'EMAIL', address: customer.email, text: texts.email(facts) });
  }
  return messages;
}

/** The e-mail the merchant receives when an invoice that asked for it expires (always in English). */
export function merchantExpiryAlert(invoice: StoredInvoice, at: string): OutboxMessage {
  return {
    to: 'merchant',
    channel: 'EMAIL',
    address: merchantAddress,
    lang: 'en-gb',
    invoiceNumber: invoice.invoiceNumber,
    at,
    text:
      `Subject: Invoice ${invoice.invoiceNumber} expired unpaid\n\n` +
      `Invoice ${invoice.invoiceNumber} to ${invoice.invoice.customer.name} for ${formatAmount(invoice.amount)} ` +
      `expired on ${invoice.expiryDate} without being paid.`,
  };
}
