import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { fromMinorUnits } from '../schemas/money.js';
import { invoiceIdentityKey, isSameInvoice } from '../schemas/same-invoice.js';
import type { LedgerFilter } from './filter.js';
import type { ReconcileLedgerInvoice } from './reconcile.js';

// The ledger's invoices one entry per invoice, as a reconciliation reads them. The ledger keeps one row per request:
// an invoice a rerun found already made is a second row with its number, and a request whose answer was lost a row
// without one. Rows of one number are one invoice, first sent when its earliest row was; a lost answer that is, by
// rule 2.3.2, the same invoice as one with a number (or as another lost answer) is that invoice.

/** The invoices sent within `filter`'s instants, one entry each, with what refunds took back of each. */
export function* invoicesOnce(
  db: DatabaseSync,
  filter: Pick<LedgerFilter, 'since' | 'until'>,
): Generator<ReconcileLedgerInvoice> {
  const conditions: string[] = [];
  const values: SQLInputValue[] = [];
  if (filter.since !== undefined) {
    conditions.push('i.sent_at >= ?');
    values.push(filter.since);
  }
  if (filter.until !== undefined) {
    conditions.push('i.sent_at <= ?');
    values.push(filter.until);
  }
  const rows = db
    .prepare(
      `SELECT 'L' || i.id AS id, i.invoice_number AS invoiceNumber, i.business_reference AS businessReference,
         i.amount_minor AS amountMinor, i.status, i.sending_date AS sendingDate, i.sent_at AS sentAt,
         coalesce((SELECT sum(r.amount_minor) FROM refunds r
           WHERE r.invoice_number = i.invoice_number AND r.status = 'refunded'), 0) AS refundedMinor,
         EXISTS (SELECT 1 FROM refunds r WHERE r.invoice_number = i.invoice_number AND r.status = 'uncertain')
           AS refundUncertain
       FROM invoices i
       WHERE (i.invoice_number IS NULL OR i.id = (SELECT s.id FROM invoices s WHERE s.invoice_number = i.invoice_number
         ORDER BY s.sent_at, s.id LIMIT 1))${conditions.map((condition) => ` AND ${condition}`).join('')}
       ORDER BY i.id`,
    )
    .iterate(...values) as Iterable<Omit<ReconcileLedgerInvoice, 'refundUncertain'> & { refundUncertain: number }>;
  const numbered = db.prepare(
    'SELECT amount_minor AS amountMinor, sending_date AS sendingDate FROM invoices WHERE business_reference = ? AND invoice_number IS NOT NULL',
  );
  /** The lost answers already given, by rule 2.3.2's identity: a second is the same invoice. */
  const lost = new Set<string>();
  for (const row of rows) {
    const invoice = { ...row, refundUncertain: row.refundUncertain === 1 };
    if (invoice.status === 'uncertain' && invoice.invoiceNumber === null) {
      const identity = identityOf(invoice);
      if (identity) {
        const key = invoiceIdentityKey(identity);
        if (lost.has(key)) continue;
        const known = numbered.all(identity.businessReference) as Array<{
          amountMinor: number | null;
          sendingDate: string | null;
        }>;
        if (known.some((other) => sameAs(identity, other))) continue;
        lost.add(key);
      }
    }
    yield invoice;
  }
}

type Identity = { businessReference: string; amount: number; sendingDate: string };

/** What rule 2.3.2 tells an invoice by, when the ledger has all of it. */
function identityOf(invoice: {
  businessReference: string | null;
  amountMinor: number | null;
  sendingDate: string | null;
}): Identity | undefined {
  const { businessReference, amountMinor, sendingDate } = invoice;
  if (businessReference === null || amountMinor === null || sendingDate === null) return undefined;
  return { businessReference, amount: fromMinorUnits(BigInt(amountMinor)), sendingDate };
}

function sameAs(identity: Identity, other: { amountMinor: number | null; sendingDate: string | null }): boolean {
  const found = identityOf({ businessReference: identity.businessReference, ...other });
  return found !== undefined && isSameInvoice(found, identity);
}
