import { invoiceSchemas, type InvoiceKind } from '../schemas/invoice.js';
import { validate } from '../schemas/validate.js';
import { cycleOf } from './invoices.js';
import { emptyState, type InvoiceStatus, type SandboxState, type StoredInvoice } from './state.js';

// The demo invoices: fixed numbers (counted from the first invoice number), customers, amounts and order
// reference numbers, one or more in every status. Their dates are relative to the sandbox's clock when they are
// seeded, so the unpaid ones are not already past their expiry date.

const dayMs = 86_400_000;

interface DemoInvoice {
  kind: InvoiceKind;
  status: InvoiceStatus;
  createdDaysAgo: number;
  expiresInDays: number;
  orderReferenceNumber?: string;
  refundReason?: string;
  request: Record<string, unknown>;
}

const item = (itemCode: string, nameEn: string, nameAr: string, price: number, purchasedQuantity = 1) => ({
  itemCode,
  purchasedQuantity,
  price,
  nameEn,
  nameAr,
});

const demoInvoices: DemoInvoice[] = [
  {
    kind: 'single',
    status: 'UNPAID',
    createdDaysAgo: 1,
    expiresInDays: 14,
    request: {
      customer: { name: 'Ahmed Hassan', email: 'ahmed.hassan@example.com', mobile: '+201001234567' },
      amount: 1250,
      businessReference: 'DEMO-0001',
      note: 'Office chairs (5 pcs)',
      communicationMethod: 'SMS',
      items: [item('CH-01', 'Office chair', 'كرسي مكتب', 250, 5)],
    },
  },
  {
    kind: 'single',
    status: 'PAID',
    createdDaysAgo: 6,
    expiresInDays: 24,
    orderReferenceNumber: '3712340',
    request: {
      customer: { name: 'Mona Ali', email: 'mona.ali@example.com', mobile: '+201112345678' },
      amount: 480.5,
      businessReference: 'DEMO-0002',
      note: 'Website maintenance, June',
      communicationMethod: 'EMAIL',
    },
  },
  {
    kind: 'recurring',
    status: 'UNPAID',
    createdDaysAgo: 2,
    expiresInDays: 28,
    request: {
      cycleType: 'MONTH',
      cycleValue: 1,
      customer: { name: 'Omar Khaled', email: 'omar.khaled@example.com', mobile: '+201223456789' },
      amount: 300,
      businessReference: 'DEMO-0003',
      note: 'Monthly gym membership',
      communicationLang: 'ar-eg',
      communicationMethod: 'BOTH',
      discount: { value: 0, type: 'FLAT' },
    },
  },
  {
    kind: 'single',
    status: 'EXPIRED',
    createdDaysAgo: 20,
    expiresInDays: -5,
    request: {
      customer: { name: 'Sara Ibrahim', mobile: '+201034567890' },
      amount: 75.25,
      businessReference: 'DEMO-0004',
      note: 'Printer toner',
      alertMerchantUponExpiry: true,
    },
  },
  {
    kind: 'single',
    status: 'REFUNDED',
    createdDaysAgo: 12,
    expiresInDays: 18,
    orderReferenceNumber: '3712341',
    refundReason: 'Order canceled by the customer',
    request: {
      customer: { name: 'Youssef Adel', email: 'youssef.adel@example.com', mobile: '+201145678901' },
      amount: 2000,
      businessReference: 'DEMO-0005',
      note: 'Laptop stand and dock',
      communicationMethod: 'EMAIL',
      taxes: '14',
    },
  },
  {
    kind: 'single',
    status: 'CANCELED',
    createdDaysAgo: 4,
    expiresInDays: 26,
    request: {
      customer: { name: 'Nour Mostafa', mobile: '+201256789012' },
      amount: 640,
      businessReference: 'DEMO-0006',
      note: 'Catering deposit',
      communicationMethod: 'NONE',
    },
  },
  {
    kind: 'recurring',
    status: 'PAID',
    createdDaysAgo: 3,
    expiresInDays: 11,
    orderReferenceNumber: '3712345',
    request: {
      cycleType: 'WEEK',
      cycleValue: 2,
      customer: { name: 'Karim Fathy', mobile: '+201067890123' },
      amount: 150,
      businessReference: 'DEMO-0007',
      note: 'Fortnightly cleaning service',
      discount: { value: 10, type: 'PERCENTAGE' },
    },
  },
  {
    kind: 'single',
    status: 'UNPAID',
    createdDaysAgo: 0,
    expiresInDays: 7,
    orderReferenceNumber: '3712346',
    request: {
      customer: { name: 'Layla Samir', mobile: '+201178901234' },
      amount: 99.99,
      businessReference: 'DEMO-0008',
      note: 'Textbooks',
      communicationLang: 'ar-eg',
      paymentType: 'PUSH_TO_SERVICE_PAY',
      preferredPaymentMethod: 'PayAtService',
    },
  },
];

/** A new state holding the demo invoices, numbered from `firstInvoiceNumber`. No messages are in its outbox. */
export function demoState(firstInvoiceNumber: string, now: Date): SandboxState {
  const state = emptyState(firstInvoiceNumber);
  const base = BigInt(firstInvoiceNumber);
  state.invoices = demoInvoices.map((demo, index) => demoInvoice(demo, (base + BigInt(index)).toString(), now));
  state.nextInvoiceNumber = (base + BigInt(demoInvoices.length)).toString();
  return state;
}

function demoInvoice(demo: DemoInvoice, invoiceNumber: string, now: Date): StoredInvoice {
  const created = new Date(now.getTime() - demo.createdDaysAgo * dayMs);
  const expiry = new Date(now.getTime() + demo.expiresInDays * dayMs);
  const request = {
    ...demo.request,
    sendingDate: created.toISOString().slice(0, 10),
    expiryDate: expiry.toISOString(),
    releaseDate: created.toISOString(),
  };
  const result = validate(invoiceSchemas[demo.kind], request);
  if (!result.success) throw new Error(`Demo invoice ${invoiceNumber} is not valid: ${JSON.stringify(result.issues)}`);
  const invoice = result.data;
  const settledAt = new Date(created.getTime() + dayMs).toISOString();
  return {
    invoiceNumber,
    kind: demo.kind,
    status: demo.status,
    request,
    invoice,
    createdAt: created.toISOString(),
    amount: invoice.amount,
    businessReference: invoice.businessReference,
    sendingDate: invoice.sendingDate,
    expiryDate: invoice.expiryDate,
    releaseDate: invoice.releaseDate,
    ...cycleOf(invoice),
    ...(demo.orderReferenceNumber ? { orderReferenceNumber: demo.orderReferenceNumber } : {}),
    issuedAt: created.toISOString(),
    ...(demo.status === 'PAID' || demo.status === 'REFUNDED' ? { paidAt: settledAt } : {}),
    ...(demo.status === 'CANCELED' ? { canceledAt: settledAt } : {}),
    ...(demo.status === 'EXPIRED' ? { expiredAt: expiry.toISOString() } : {}),
    refunds:
      demo.status === 'REFUNDED' && demo.orderReferenceNumber
        ? [
            {
              amount: invoice.amount,
              reason: demo.refundReason ?? 'Refunded',
              orderReferenceNumber: demo.orderReferenceNumber,
              at: new Date(created.getTime() + 2 * dayMs).toISOString(),
            },
          ]
        : [],
  };
}
