import type { SQLInputValue } from 'node:sqlite';

/** The statuses an invoice of the ledger can be listed by. */
export const ledgerStatuses = ['created', 'uncertain', 'refused', 'refunded', 'refund-uncertain'] as const;
export type LedgerStatus = (typeof ledgerStatuses)[number];

/** Which invoices of the ledger to list or export. */
export interface LedgerFilter {
  /** Sent at or after this instant (ISO). */
  since?: string;
  /** Sent at or before this instant (ISO). */
  until?: string;
  businessReference?: string;
  invoiceNumber?: string;
  /** Part of the customer's name, or their mobile number. */
  customer?: string;
  status?: LedgerStatus;
  kind?: 'single' | 'recurring';
  /** The batch (its journal's id) it was sent in. */
  run?: string;
}

/** The WHERE clause of `filter`, and its values in order. */
export function filterSql(filter: LedgerFilter): { where: string; values: SQLInputValue[] } {
  const conditions: string[] = [];
  const values: SQLInputValue[] = [];
  const add = (condition: string, ...given: SQLInputValue[]) => {
    conditions.push(condition);
    values.push(...given);
  };
  if (filter.since !== undefined) add('sent_at >= ?', filter.since);
  if (filter.until !== undefined) add('sent_at <= ?', filter.until);
  if (filter.businessReference !== undefined) add('business_reference = ?', filter.businessReference);
  if (filter.invoiceNumber !== undefined) add('invoice_number = ?', filter.invoiceNumber);
  if (filter.customer !== undefined) {
    const pattern = `%${filter.customer.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    add("(customer_name LIKE ? ESCAPE '\\' OR customer_mobile LIKE ? ESCAPE '\\')", pattern, pattern);
  }
  if (filter.kind !== undefined) add('kind = ?', filter.kind);
  if (filter.run !== undefined) add('(run = ? OR journal = ?)', filter.run, filter.run);
  switch (filter.status) {
    case undefined:
      break;
    case 'refunded':
    case 'refund-uncertain':
      add('refund_status = ?', filter.status);
      break;
    default:
      add('status = ? AND refund_status IS NULL', filter.status);
  }
  return { where: conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`, values };
}
