import { fromMinorUnits, toMinorUnits } from '../schemas/money.js';
import type { Statistics } from '../schemas/statistics.js';
import type { InvoiceStatus, SandboxState } from './state.js';

const groupOfStatus = {
  PAID: 'paidInvoices',
  UNPAID: 'unpaidInvoices',
  EXPIRED: 'expiredInvoices',
  REFUNDED: 'refundedInvoices',
  CANCELED: 'canceledInvoices',
} as const satisfies Record<InvoiceStatus, string>;

/** The six groups of spec 2.4, from the invoices' amounts summed in minor units. */
export function computeStatistics(state: SandboxState): Statistics {
  const minor = {
    allInvoices: { totalCount: 0, totalAmount: 0 },
    paidInvoices: { totalCount: 0, totalAmount: 0 },
    unpaidInvoices: { totalCount: 0, totalAmount: 0 },
    expiredInvoices: { totalCount: 0, totalAmount: 0 },
    refundedInvoices: { totalCount: 0, totalAmount: 0 },
    canceledInvoices: { totalCount: 0, totalAmount: 0 },
  };
  for (const invoice of state.invoices) {
    const amount = toMinorUnits(invoice.amount);
    for (const group of [minor.allInvoices, minor[groupOfStatus[invoice.status]]]) {
      group.totalCount += 1;
      group.totalAmount += amount;
    }
  }
  for (const group of Object.values(minor)) group.totalAmount = fromMinorUnits(group.totalAmount);
  return minor;
}
