import { fromMinorUnits } from '../schemas/money.js';
import { statisticsGroups, type Statistics, type StatisticsGroup } from '../schemas/statistics.js';
import type { InvoiceStatus } from './state.js';

const groupOfStatus = {
  PAID: 'paidInvoices',
  UNPAID: 'unpaidInvoices',
  EXPIRED: 'expiredInvoices',
  REFUNDED: 'refundedInvoices',
  CANCELED: 'canceledInvoices',
} as const satisfies Record<InvoiceStatus, string>;

/** How many invoices of one status there are, and their amounts summed in minor units. */
export interface StatusTotals {
  status: InvoiceStatus;
  count: number;
  minor: bigint;
}

/** The six groups of spec 2.4, from the invoices' amounts summed in minor units per status. */
export function computeStatistics(totals: Iterable<StatusTotals>): Statistics {
  const minor = Object.fromEntries(
    statisticsGroups.map((group) => [group, { totalCount: 0, totalMinor: 0n }]),
  ) as Record<StatisticsGroup, { totalCount: number; totalMinor: bigint }>;
  for (const { status, count, minor: amount } of totals) {
    for (const group of [minor.allInvoices, minor[groupOfStatus[status]]]) {
      group.totalCount += count;
      group.totalMinor += amount;
    }
  }
  // Each amount is within the ceiling, so a total is a finite number however many invoices there are; past 15
  // digits it is the nearest one a JSON number carries. A state written before the ceiling may hold more: its
  // total is still a finite number, the largest there is, never Infinity (which JSON writes as null).
  return Object.fromEntries(
    statisticsGroups.map((group) => [
      group,
      {
        totalCount: minor[group].totalCount,
        totalAmount: Math.min(fromMinorUnits(minor[group].totalMinor), Number.MAX_VALUE),
      },
    ]),
  ) as Statistics;
}
