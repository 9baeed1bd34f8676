import type { SQLInputValue } from 'node:sqlite';

/** The statuses an invoice of the ledger can be listed by. */
export const ledgerStatuses = [
  'created',
  'uncertain',
  'refused',
  'not-created',
  'refunded',
  'refund-uncertain',
] as const;
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
  /** A batch (its journal's id, or its journal file) that sent it. */
  run?: string;
  /** The numbering of one service (`Ledger.currentScope()`). */
  scope?: string;
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
  if (filter.run !== undefined) {
    // The batch that sent it first, or a later one that met it (its requests are keyed by the batch's id).
    add(
      `(run = ? OR journal = ? OR id IN (SELECT entry FROM history WHERE type = 'invoice' AND request_key >= ? AND request_key < ?))`,
      filter.run,
      filter.run,
      `journal:${filter.run}:`,
      `journal:${filter.run};`,
    );
  }
  if (filter.scope !== undefined) add('scope = ?', filter.scope);
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
