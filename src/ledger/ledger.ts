import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { ledgerBusyTimeoutMs, openLedgerFile } from './database.js';
import { invoiceFields, minorOf, type InvoiceEntry, type LedgerEntry, type RefundEntry } from './entries.js';
import { filterSql, type LedgerFilter } from './filter.js';
import { invoicesOnce } from './per-invoice.js';
import type { ReconcileLedgerInvoice } from './reconcile.js';

// The merchant's ledger of one environment: every invoice and refund einvoice sent there from this machine, or
// imported from a journal. A request is one row, keyed so that recording it again (a rerun, an import) updates it.

const schema = `
  CREATE TABLE invoices (
    id INTEGER PRIMARY KEY,
    entry_key TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    status TEXT NOT NULL,
    refund_status TEXT,
    invoice_number TEXT,
    business_reference TEXT,
    customer_name TEXT,
    customer_mobile TEXT,
    customer_email TEXT,
    amount_minor INTEGER,
    currency TEXT,
    sending_date TEXT,
    expiry_date TEXT,
    sent_at TEXT NOT NULL,
    error TEXT,
    decided TEXT,
    via TEXT NOT NULL,
    source_file TEXT,
    source_line INTEGER,
    journal TEXT,
    run TEXT,
    service TEXT,
    content_key TEXT,
    body TEXT NOT NULL
  );
  CREATE INDEX invoices_newest ON invoices (sent_at, id);
  CREATE INDEX invoices_by_reference ON invoices (business_reference) WHERE business_reference IS NOT NULL;
  CREATE INDEX invoices_by_number ON invoices (invoice_number) WHERE invoice_number IS NOT NULL;
  CREATE INDEX invoices_by_run ON invoices (run, sent_at) WHERE run IS NOT NULL;
  CREATE INDEX invoices_by_content ON invoices (content_key) WHERE content_key IS NOT NULL;
  CREATE TABLE refunds (
    id INTEGER PRIMARY KEY,
    entry_key TEXT NOT NULL UNIQUE,
    invoice_number TEXT NOT NULL,
    status TEXT NOT NULL,
    amount_minor INTEGER,
    currency TEXT,
    reason TEXT,
    order_reference TEXT,
    sent_at TEXT NOT NULL,
    error TEXT,
    decided TEXT,
    via TEXT NOT NULL,
    source_file TEXT,
    source_line INTEGER,
    journal TEXT,
    run TEXT,
    service TEXT,
    body TEXT NOT NULL
  );
  CREATE INDEX refunds_by_invoice ON refunds (invoice_number, sent_at);
  CREATE INDEX refunds_newest ON refunds (sent_at);
`;

/** An invoice as the ledger lists it. */
export interface LedgerInvoice {
  kind: string;
  /** created, uncertain or refused; `refunded` / `refund-uncertain` once a refund of it was sent. */
  status: string;
  invoiceNumber: string | null;
  businessReference: string | null;
  customerName: string | null;
  customerMobile: string | null;
  customerEmail: string | null;
  amountMinor: number | null;
  currency: string | null;
  sendingDate: string | null;
  expiryDate: string | null;
  sentAt: string;
  error: string | null;
  decided: string | null;
  via: string;
  sourceFile: string | null;
  sourceLine: number | null;
  /** Where it came from, in words: `flags`, `prompts`, `file invoice.json`, `invoices.csv:12`. */
  source: string;
  journal: string | null;
  run: string | null;
  service: string | null;
}

/** A refund as the ledger lists it. */
export interface LedgerRefund {
  invoiceNumber: string;
  status: string;
  amountMinor: number | null;
  currency: string | null;
  reason: string | null;
  orderReference: string | null;
  sentAt: string;
  error: string | null;
  decided: string | null;
  via: string;
  sourceFile: string | null;
  sourceLine: number | null;
  journal: string | null;
  run: string | null;
}

/** Where a request came from, in words: `flags`, `prompts`, `file invoice.json`, `invoices.csv:12`. */
const sourceText = `CASE WHEN source_file IS NULL THEN via WHEN source_line IS NULL THEN via || ' ' || source_file
  ELSE source_file || ':' || source_line END AS source`;

const invoiceColumns = `kind, coalesce(refund_status, status) AS status, invoice_number AS invoiceNumber,
  business_reference AS businessReference, customer_name AS customerName, customer_mobile AS customerMobile,
  customer_email AS customerEmail, amount_minor AS amountMinor, currency, sending_date AS sendingDate,
  expiry_date AS expiryDate, sent_at AS sentAt, error, decided, via, source_file AS sourceFile,
  source_line AS sourceLine, ${sourceText}, journal, run, service`;

const refundColumns = `invoice_number AS invoiceNumber, status, amount_minor AS amountMinor, currency, reason,
  order_reference AS orderReference, sent_at AS sentAt, error, decided, via, source_file AS sourceFile,
  source_line AS sourceLine, journal, run`;

/** The ledger of one environment, open. */
export class Ledger {
  readonly file: string;
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();

  private constructor(file: string, db: DatabaseSync) {
    this.file = file;
    this.#db = db;
  }

  /** Opens the ledger in `file`, making it when `create`; undefined when there is none to read. */
  static async open(file: string, options: { create: boolean }): Promise<Ledger | undefined> {
    const db = await openLedgerFile(file, schema, options);
    return db && new Ledger(file, db);
  }

  /**
   * Records `entries` in one transaction: a new request is added, one recorded before (by its key) takes the latest
   * answer; an answer never goes back to uncertain, since an older copy of a journal may be imported after a newer.
   * With `wait` false, a ledger another process is writing is not waited for: false is returned, nothing written.
   */
  record(entries: readonly LedgerEntry[], { wait = true } = {}): boolean {
    if (entries.length === 0) return true;
    if (!wait) this.#db.exec('PRAGMA busy_timeout = 0');
    try {
      this.#db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      if (!wait && /database is locked|busy/i.test((error as Error).message)) return false;
      throw error;
    } finally {
      if (!wait) this.#db.exec(`PRAGMA busy_timeout = ${ledgerBusyTimeoutMs}`);
    }
    try {
      const refunded = new Set<string>();
      for (const entry of entries) {
        if (entry.type === 'invoice') this.#recordInvoice(entry);
        else {
          this.#recordRefund(entry);
          refunded.add(entry.invoiceNumber);
        }
      }
      for (const number of refunded) this.#updateRefundStatus(number);
      this.#db.exec('COMMIT');
      return true;
    } catch (error) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      throw error;
    }
  }

  #recordInvoice(entry: InvoiceEntry): void {
    const fields = invoiceFields(entry.body ?? (JSON.parse(entry.bodyJson) as Record<string, unknown>));
    const { source } = entry;
    this.#run(
      `INSERT INTO invoices (entry_key, kind, status, invoice_number, business_reference, customer_name,
         customer_mobile, customer_email, amount_minor, currency, sending_date, expiry_date, sent_at, error, decided,
         via, source_file, source_line, journal, run, service, content_key, body)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (entry_key) DO UPDATE SET
         status = excluded.status, invoice_number = coalesce(excluded.invoice_number, invoice_number),
         error = excluded.error, decided = coalesce(excluded.decided, decided)
       WHERE NOT (excluded.status = 'uncertain' AND invoices.status <> 'uncertain')`,
      entry.key,
      entry.kind,
      entry.status,
      entry.invoiceNumber ?? null,
      fields.businessReference,
      fields.customerName,
      fields.customerMobile,
      fields.customerEmail,
      fields.amountMinor,
      entry.currency ?? null,
      fields.sendingDate,
      fields.expiryDate,
      entry.sentAt,
      entry.error ?? null,
      entry.decided ?? null,
      source.via,
      source.file ?? null,
      source.line ?? null,
      source.journal ?? null,
      source.run ?? null,
      entry.service ?? null,
      entry.contentKey ?? null,
      entry.bodyJson,
    );
    // A refund imported before the invoice it refunds (journals come in any order) marks it now.
    const number = entry.invoiceNumber;
    if (number !== undefined && this.#statement('SELECT 1 FROM refunds WHERE invoice_number = ?').get(number)) {
      this.#updateRefundStatus(number);
    }
  }

  #recordRefund(entry: RefundEntry): void {
    const body = entry.body ?? (JSON.parse(entry.bodyJson) as Record<string, unknown>);
    const { source } = entry;
    this.#run(
      `INSERT INTO refunds (entry_key, invoice_number, status, amount_minor, currency, reason, order_reference,
         sent_at, error, decided, via, source_file, source_line, journal, run, service, body)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (entry_key) DO UPDATE SET
         status = excluded.status, error = excluded.error, decided = coalesce(excluded.decided, decided)
       WHERE NOT (excluded.status = 'uncertain' AND refunds.status <> 'uncertain')`,
      entry.key,
      entry.invoiceNumber,
      entry.status,
      minorOf(body.amount),
      entry.currency ?? null,
      typeof body.reason === 'string' ? body.reason : null,
      typeof body.orderReferenceNumber === 'string' ? body.orderReferenceNumber : null,
      entry.sentAt,
      entry.error ?? null,
      entry.decided ?? null,
      source.via,
      source.file ?? null,
      source.line ?? null,
      source.journal ?? null,
      source.run ?? null,
      entry.service ?? null,
      entry.bodyJson,
    );
  }

  /** The invoices' status follows its refunds: refunded if one was made, refund-uncertain if one may have been. */
  #updateRefundStatus(invoiceNumber: string): void {
    this.#run(
      `UPDATE invoices SET refund_status = (SELECT ${refundStatusOf(1)}) WHERE invoice_number = ?1`,
      invoiceNumber,
    );
  }

  /**
   * The merchant's word on uncertain refunds of `invoiceNumber`: made (`refunded`) or not (`not-refunded`). Returns
   * how many were settled.
   */
  settleRefunds(invoiceNumber: string, status: 'refunded' | 'not-refunded', decided: string): number {
    let changed = 0;
    this.#write(() => {
      changed = Number(
        this.#statement(
          `UPDATE refunds SET status = ?, decided = ? WHERE invoice_number = ? AND status = 'uncertain'`,
        ).run(status, decided, invoiceNumber).changes,
      );
      this.#updateRefundStatus(invoiceNumber);
    });
    return changed;
  }

  /** Removes what was sent before `instant` (an ISO instant): invoices and refunds. */
  forget(instant: string): { invoices: number; refunds: number } {
    let result = { invoices: 0, refunds: 0 };
    this.#write(() => {
      const invoices = this.#statement('DELETE FROM invoices WHERE sent_at < ?').run(instant).changes;
      const refunds = this.#statement('DELETE FROM refunds WHERE sent_at < ?').run(instant).changes;
      result = { invoices: Number(invoices), refunds: Number(refunds) };
    });
    if (result.invoices + result.refunds > 0) this.#db.exec('VACUUM');
    return result;
  }

  /** The invoices `filter` selects, newest first, one at a time, at most `limit` of them (all without one). */
  *list(filter: LedgerFilter, limit?: number): Generator<LedgerInvoice> {
    const { where, values } = filterSql(filter);
    const sql = `SELECT ${invoiceColumns} FROM invoices ${where} ORDER BY sent_at DESC, id DESC${limit === undefined ? '' : ' LIMIT ?'}`;
    const args: SQLInputValue[] = limit === undefined ? values : [...values, limit];
    yield* this.#db.prepare(sql).iterate(...args) as Iterable<LedgerInvoice>;
  }

  /** Every invoice `filter` selects, newest first, one at a time, with its latest refund. */
  *each(filter: LedgerFilter): Generator<{ invoice: LedgerInvoice; refund?: LedgerRefund }> {
    const { where, values } = filterSql(filter);
    const rows = this.#db
      .prepare(
        `SELECT ${invoiceColumns}, (SELECT json_object('invoiceNumber', r.invoice_number, 'status', r.status,
           'amountMinor', r.amount_minor, 'currency', r.currency, 'reason', r.reason,
           'orderReference', r.order_reference, 'sentAt', r.sent_at, 'error', r.error, 'decided', r.decided)
           FROM refunds r WHERE r.invoice_number = invoices.invoice_number ORDER BY r.sent_at DESC LIMIT 1) AS refund
         FROM invoices ${where} ORDER BY sent_at DESC, id DESC`,
      )
      .iterate(...values);
    for (const row of rows as Iterable<LedgerInvoice & { refund: string | null }>) {
      const { refund, ...invoice } = row;
      yield { invoice, ...(refund ? { refund: JSON.parse(refund) as LedgerRefund } : {}) };
    }
  }

  /** The invoices sent within `filter`'s instants, one entry per invoice however often it was sent. */
  *perInvoice(filter: Pick<LedgerFilter, 'since' | 'until'>): Generator<ReconcileLedgerInvoice> {
    yield* invoicesOnce(this.#db, filter);
  }

  /** The invoices with this number or businessReference, newest first, each with its body and refunds. */
  find(numberOrReference: string): Array<{ invoice: LedgerInvoice; body: unknown; refunds: LedgerRefund[] }> {
    const rows = this.#statement(
      `SELECT ${invoiceColumns}, body FROM invoices WHERE invoice_number = ?
       UNION SELECT ${invoiceColumns}, body FROM invoices WHERE business_reference = ?
       ORDER BY sentAt DESC`,
    ).all(numberOrReference, numberOrReference) as unknown as Array<LedgerInvoice & { body: string }>;
    return rows.map(({ body, ...invoice }) => ({
      invoice,
      body: JSON.parse(body) as unknown,
      refunds: invoice.invoiceNumber === null ? [] : this.refundsOf(invoice.invoiceNumber),
    }));
  }

  /** The refunds sent for `invoiceNumber`, newest first. */
  refundsOf(invoiceNumber: string): LedgerRefund[] {
    return this.#statement(
      `SELECT ${refundColumns} FROM refunds WHERE invoice_number = ? ORDER BY sent_at DESC, id DESC`,
    ).all(invoiceNumber) as unknown as LedgerRefund[];
  }

  /** Whether any invoice without a businessReference is recorded (else no record needs looking up). */
  holdsContentKeys(): boolean {
    return this.#statement('SELECT 1 FROM invoices WHERE content_key IS NOT NULL LIMIT 1').get() !== undefined;
  }

  /** An invoice of another batch than `run` whose body without a businessReference is the same, if any. */
  sameContent(contentKey: string, run: string | undefined): LedgerInvoice | undefined {
    return this.#statement(
      `SELECT ${invoiceColumns} FROM invoices WHERE content_key = ? AND run IS NOT ? AND status <> 'refused'
       ORDER BY sent_at DESC LIMIT 1`,
    ).get(contentKey, run ?? null) as unknown as LedgerInvoice | undefined;
  }

  /** How many invoices and refunds the ledger holds. */
  size(): number {
    const row = this.#statement(
      'SELECT (SELECT count(*) FROM invoices) + (SELECT count(*) FROM refunds) AS size',
    ).get();
    return Number((row as { size: number }).size);
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }

  #write(work: () => void): void {
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      work();
      this.#db.exec('COMMIT');
    } catch (error) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      throw error;
    }
  }

  #run(sql: string, ...values: SQLInputValue[]): void {
    this.#statement(sql).run(...values);
  }

  #statement(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}

/** The refund status of the invoice numbered by `parameter`, from the refunds recorded for it. */
function refundStatusOf(parameter: number): string {
  return `CASE WHEN EXISTS (SELECT 1 FROM refunds WHERE invoice_number = ?${parameter} AND status = 'refunded')
    THEN 'refunded' WHEN EXISTS (SELECT 1 FROM refunds WHERE invoice_number = ?${parameter} AND status = 'uncertain')
    THEN 'refund-uncertain' END`;
}
