import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { loadSqlite } from '../local-database.js';
import type { LedgerStatus } from './filter.js';
import type { InvoiceToReconcile } from './ledger.js';
import {
  addToTotals,
  classify,
  distinctInvoices,
  emptyTotals,
  foldReference,
  isInvoice,
  type ReconcileClass,
  type ReconcileOrder,
  type ReconcileRow,
  type ReconcileTotals,
} from './reconcile.js';

// Where a reconciliation brings each reference's orders and invoices together: a SQLite file of its own in a private
// temporary folder, removed when it closes. A million orders against a million invoices are sorted by SQLite, on disk,
// rather than held in this process: both sides stream in, the references come out in order one at a time, and the
// rows are read back in the orders' order, so memory stays flat however long the files are.

const schema = `
  CREATE TABLE orders (seq INTEGER PRIMARY KEY, key TEXT NOT NULL, row INTEGER NOT NULL, reference TEXT NOT NULL,
    amount INTEGER NOT NULL, record TEXT);
  CREATE TABLE invoices (seq INTEGER PRIMARY KEY, key TEXT, id TEXT NOT NULL, number TEXT, reference TEXT,
    amount INTEGER, status TEXT NOT NULL, refunded INTEGER NOT NULL, sending_date TEXT, sent_at TEXT NOT NULL);
  CREATE TABLE results (place_order INTEGER, place_sent TEXT, place_invoice INTEGER, class TEXT NOT NULL,
    o_seq INTEGER, o_row INTEGER, o_reference TEXT, o_amount INTEGER,
    i_seq INTEGER, i_id TEXT, i_number TEXT, i_reference TEXT, i_amount INTEGER, i_status TEXT, i_refunded INTEGER,
    i_sending_date TEXT, i_sent_at TEXT);
`;

/** Both sides in one stream, by folded reference: a reference's orders, then its invoices, each in their order. */
const byReference = `
  SELECT key, 0 AS side, seq, row, reference, amount, NULL AS id, NULL AS number, NULL AS status, NULL AS refunded,
    NULL AS sending_date, NULL AS sent_at FROM orders
  UNION ALL
  SELECT key, 1, seq, NULL, reference, amount, id, number, status, refunded, sending_date, sent_at FROM invoices
  ORDER BY 1, 2, 3`;

interface SideRow {
  key: string | null;
  side: 0 | 1;
  seq: number;
  row: number | null;
  reference: string | null;
  amount: number | null;
  id: string | null;
  number: string | null;
  status: LedgerStatus | null;
  refunded: number | null;
  sending_date: string | null;
  sent_at: string | null;
}

type ResultRow = Record<string, SQLInputValue> & { class: ReconcileClass };

/** A reconciliation's orders, invoices and rows, in a temporary database. */
export class ReconcileStore {
  readonly #folder: string;
  readonly #db: DatabaseSync;
  readonly #insertOrder: StatementSync;
  readonly #insertInvoice: StatementSync;
  #orders = 0;
  #invoices = 0;

  private constructor(folder: string, db: DatabaseSync) {
    this.#folder = folder;
    this.#db = db;
    this.#insertOrder = db.prepare('INSERT INTO orders VALUES (?, ?, ?, ?, ?, ?)');
    this.#insertInvoice = db.prepare('INSERT INTO invoices VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  }

  /** A new store, in a folder of its own (0700: the orders are customers' data). */
  static async open(): Promise<ReconcileStore> {
    const folder = await mkdtemp(join(tmpdir(), 'einvoice-reconcile-'));
    try {
      const { DatabaseSync } = await loadSqlite();
      const db = new DatabaseSync(join(folder, 'reconcile.sqlite'));
      // Nothing here outlives the command: no journal, no waiting for the disk.
      db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE');
      db.exec('PRAGMA cache_size = -32768');
      db.exec(schema);
      db.exec('BEGIN');
      return new ReconcileStore(folder, db);
    } catch (error) {
      await rm(folder, { recursive: true, force: true });
      throw error;
    }
  }

  /** How many orders and invoices it holds (the invoices each once, after `classify()`). */
  get counts(): { orders: number; invoices: number } {
    return { orders: this.#orders, invoices: this.#invoices };
  }

  /** Adds an order, with its record as JSON when it is to be written out again (`--emit-missing`). */
  addOrder(order: Omit<ReconcileOrder, 'seq'>, record?: string): void {
    this.#insertOrder.run(
      this.#orders++,
      foldReference(order.businessReference),
      order.row,
      order.businessReference,
      order.amountMinor,
      record ?? null,
    );
  }

  /** Adds the ledger's invoices; a request refused, or settled as not created, made none and is left out. */
  addInvoices(invoices: Iterable<InvoiceToReconcile>): void {
    for (const invoice of invoices) {
      if (!isInvoice(invoice)) continue;
      const reference = invoice.businessReference;
      this.#insertInvoice.run(
        this.#invoices++,
        reference === null || reference.trim() === '' ? null : foldReference(reference),
        invoice.id,
        invoice.invoiceNumber,
        reference,
        invoice.amountMinor,
        invoice.status,
        invoice.refundedMinor,
        invoice.sendingDate,
        invoice.sentAt,
      );
    }
  }

  /**
   * Classifies every reference and keeps its rows in the orders' order (rows of invoices without an order after them,
   * by when they were sent); returns each class's totals.
   */
  classify(): ReconcileTotals {
    const totals = emptyTotals();
    const insert = this.#db.prepare(`INSERT INTO results VALUES (${Array(17).fill('?').join(', ')})`);
    const settle = (orders: ReconcileOrder[], entries: Array<InvoiceToReconcile & { seq: number }>) => {
      const invoices = distinctInvoices(entries);
      // An entry that is another's invoice is not counted as one.
      this.#invoices -= entries.length - invoices.length;
      for (const row of classify(orders, invoices)) {
        addToTotals(totals, row);
        insert.run(...resultValues(row));
      }
    };
    let key: string | null | undefined;
    let orders: ReconcileOrder[] = [];
    let invoices: Array<InvoiceToReconcile & { seq: number }> = [];
    for (const side of this.#db.prepare(byReference).iterate() as Iterable<SideRow>) {
      // An invoice without a reference has no order, nor any other invoice, of its own.
      if (side.key !== key || side.key === null) {
        settle(orders, invoices);
        orders = [];
        invoices = [];
        key = side.key;
      }
      if (side.side === 0) orders.push(orderOf(side));
      else invoices.push(invoiceOf(side));
    }
    settle(orders, invoices);
    this.#db.exec(
      `CREATE TABLE shown AS SELECT * FROM results
         ORDER BY place_order IS NULL, place_order, place_sent, place_invoice;
       DROP TABLE results`,
    );
    this.#db.exec('COMMIT');
    return totals;
  }

  /** The rows, in order; only those that are not `matched` with `discrepancies`, the first `limit` with one. */
  *rows(options: { discrepancies?: boolean; limit?: number } = {}): Generator<ReconcileRow> {
    const where = options.discrepancies ? "WHERE class <> 'matched'" : '';
    const limit = options.limit === undefined ? '' : ` LIMIT ${Math.floor(options.limit)}`;
    const rows = this.#db.prepare(`SELECT * FROM shown ${where} ORDER BY rowid${limit}`).iterate();
    for (const row of rows as Iterable<ResultRow>) yield rowOf(row);
  }

  /** The records of the orders no invoice was found for (`not-invoiced`), in file order, as they were added. */
  *notInvoiced(): Generator<{ row: number; record: string }> {
    const rows = this.#db
      .prepare(
        `SELECT o.row, o.record FROM shown s JOIN orders o ON o.seq = s.o_seq
         WHERE s.class = 'not-invoiced' ORDER BY s.rowid`,
      )
      .iterate();
    yield* rows as Iterable<{ row: number; record: string }>;
  }

  /** Closes the database and removes its folder. */
  async close(): Promise<void> {
    if (this.#db.isOpen) this.#db.close();
    await rm(this.#folder, { recursive: true, force: true });
  }
}

function orderOf(side: SideRow): ReconcileOrder {
  return {
    seq: side.seq,
    row: side.row as number,
    businessReference: side.reference as string,
    amountMinor: side.amount as number,
  };
}

function invoiceOf(side: SideRow): InvoiceToReconcile & { seq: number } {
  return {
    seq: side.seq,
    id: side.id as string,
    invoiceNumber: side.number,
    businessReference: side.reference,
    amountMinor: side.amount,
    status: side.status as LedgerStatus,
    refundedMinor: side.refunded ?? 0,
    sendingDate: side.sending_date,
    sentAt: side.sent_at as string,
  };
}

/** A row as the results table keeps it: where it goes, then its order's and its invoice's columns. */
function resultValues(row: ReconcileRow): SQLInputValue[] {
  const { order } = row;
  // The invoices classify() hands back are those it was given, each with its place in the store.
  const invoice = row.invoice as (InvoiceToReconcile & { seq: number }) | undefined;
  const seq = invoice?.seq ?? null;
  return [
    order?.seq ?? null,
    order ? null : (invoice?.sentAt ?? null),
    seq,
    row.class,
    order?.seq ?? null,
    order?.row ?? null,
    order?.businessReference ?? null,
    order?.amountMinor ?? null,
    seq,
    invoice?.id ?? null,
    invoice?.invoiceNumber ?? null,
    invoice?.businessReference ?? null,
    invoice?.amountMinor ?? null,
    invoice?.status ?? null,
    invoice?.refundedMinor ?? null,
    invoice?.sendingDate ?? null,
    invoice?.sentAt ?? null,
  ];
}

function rowOf(row: ResultRow): ReconcileRow {
  return {
    class: row.class,
    ...(row.o_seq === null
      ? {}
      : {
          order: {
            seq: row.o_seq as number,
            row: row.o_row as number,
            businessReference: row.o_reference as string,
            amountMinor: row.o_amount as number,
          },
        }),
    ...(row.i_id === null
      ? {}
      : {
          invoice: {
            id: row.i_id as string,
            invoiceNumber: row.i_number as string | null,
            businessReference: row.i_reference as string | null,
            amountMinor: row.i_amount as number | null,
            status: row.i_status as LedgerStatus,
            refundedMinor: row.i_refunded as number,
            sendingDate: row.i_sending_date as string | null,
            sentAt: row.i_sent_at as string,
          },
        }),
  };
}
