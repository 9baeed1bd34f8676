import * as z from 'zod';
import { wholeNumber } from './fields.js';

/** Count and total amount of the invoices in one group. */
export const statisticsGroupSchema = z.object({
  totalCount: wholeNumber(0),
  totalAmount: z.number().refine(Number.isFinite, { error: 'must be a finite number' }),
});

/** The six groups of the statistics, in the order the service lists them. */
export const statisticsGroups = [
  'allInvoices',
  'paidInvoices',
  'unpaidInvoices',
  'expiredInvoices',
  'refundedInvoices',
  'canceledInvoices',
] as const;
export type StatisticsGroup = (typeof statisticsGroups)[number];

/** The response of `GET /invoice-api/invoices/statistics`; extra fields the service may add are kept. */
export const statisticsSchema = z.looseObject({
  allInvoices: statisticsGroupSchema,
  paidInvoices: statisticsGroupSchema,
  unpaidInvoices: statisticsGroupSchema,
  expiredInvoices: statisticsGroupSchema,
  refundedInvoices: statisticsGroupSchema,
  canceledInvoices: statisticsGroupSchema,
});

export type Statistics = z.output<typeof statisticsSchema>;
