import type { LocalDatabase, SqlValue } from '../local-database.js';
import { LocalFileError } from '../errors.js';
import { ledgerBusyTimeoutMs, openLedgerDatabase } from './database.js';
import type { LedgerEntry } from './entries.js';
import { filterSql, type LedgerFilter, type LedgerStatus } from './filter.js';
import { checkJournal, importJournal, type ImportOptions, type JournalProblem } from './journal-import.js';
import { Recording } from './recording.js';
import {
  entryIdOf,
  historyColumns,
  invoiceColumns,
  refundColumns,
  type LedgerInvoice,
  type LedgerRefund,
  type LedgerStep,
} from './rows.js';

export type { LedgerInvoice, LedgerRefund, LedgerStep } from './rows.js';
export { entryIdOf } from './rows.js';

// The merchant's ledger of one environment: every invoice and refund einvoice sent there from this machine, or
// imported from a journal. An invoice is one entry however many requests met it (recording.ts); reads stream.

/** An invoice of the ledger found by `find()`: as sent, with its refunds and every request that met it. */
export interface FoundInvoice {
  invoice: LedgerInvoice;
  body: unknown;
  refunds: LedgerRefund[];
  history: LedgerStep[];
}

/** An invoice as a reconciliation reads it: one per invoice, its amounts in minor units. */
export interface InvoiceToReconcile {
  /** Its entry's id (`L12`). */
  id: string;
  invoiceNumber: string | null;
  /** As sent. */
  businessReference: string | null;
  /** Null when the body's amount was no amount (the ledger keeps the body as sent either way). */
  amountMinor: number | null;
  /** As `list` shows it: `refunded` or `refund-uncertain` once a refund of it was sent. */
  status: LedgerStatus;
  /** What its refunds the service made add up to. */
  refundedMinor: number;
  sendingDate: string | null;
  /** When it was first sent (an ISO instant). */
  sentAt: string;
}

/** An invoice is of the numbering its service uses now: the scope last seen of it (or its own, when none was). */
const inCurrentNumbering = `scope = coalesce((SELECT s.scope FROM scopes s WHERE s.service = invoices.service), scope)`;

/** The ledger of one environment, open. */
export class Ledger {
  readonly file: string;
  readonly #db: LocalDatabase;
  readonly #busyTimeoutMs: number;

  private constructor(file: string, db: LocalDatabase, busyTimeoutMs: number) {
    this.file = file;
    this.#db = db;
    this.#busyTimeoutMs = busyTimeoutMs;
  }

  /** Opens the ledger in `file`, making it when `create`; undefined when there is none to read. */
  static async open(file: string, options: { create: boolean; busyTimeoutMs?: number }): Promise<Ledger | undefined> {
    const db = await openLedgerDatabase(file, options);
    return db && new Ledger(file, db, options.busyTimeoutMs ?? ledgerBusyTimeoutMs);
  }

  /**
   * Records `entries` (each a step of a request) in one transaction. With `wait` false, a ledger another process is
   * writing is not waited for: false is returned, nothing written.
   */
  record(entries: readonly LedgerEntry[], { wait = true } = {}): boolean {
    if (entries.length === 0) return true;
    return this.#writing(wait, () => {
      const recording = new Recording(this.#db);
      for (const entry of entries) recording.record(entry);
    });
  }

  /**
   * The merchant's word on requests the ledger holds, by their keys, in one transaction: `status` as of `at`. Returns
   * the keys it changed (a request the ledger does not hold, or holds a later step of, is left as it is).
   */
  mark(marks: ReadonlyArray<{ type: 'invoice' | 'refund'; key: string; status: string; decided: string }>, at: string) {
    const changed: string[] = [];
    this.#writing(true, () => {
      const recording = new Recording(this.#db);
      for (const { type, key, status, decided } of marks) {
        if (recording.mark(type, key, status, at, decided)) changed.push(key);
      }
    });
    return changed;
  }

  /**
   * Reads a journal whole as the `journal`th of an import, before anything of it is recorded: its problems, each
   * named by its line (the first 50, and how many there were).
   */
  checkJournal(path: string, journal: number): Promise<{ problems: JournalProblem[]; count: number }> {
    return checkJournal(this.#db, path, journal);
  }

  /** Records the requests of a journal `checkJournal()` read; how many it recorded. */
  importJournal(path: string, journal: number, options: ImportOptions): Promise<number> {
    return importJournal(this.#db, path, journal, options);
  }

  /** The keys of the requests of an invoice or refund entry, and their latest steps. */
  requestsOf(type: 'invoice' | 'refund', id: number): LedgerStep[] {
    return this.#db.all(
      `SELECT ${historyColumns} FROM history WHERE type = ? AND entry = ? ORDER BY at, request_key`,
      type,
      id,
    ) as unknown as LedgerStep[];
  }

  /**
   * The merchant's word on the refunds of `invoiceNumber` in `scope` whose outcome is unknown, or was the merchant's
   * word: made (`refunded`) or not (`not-refunded`). Returns how many it settled.
   */
  markRefundsOf(
    scope: string,
    invoiceNumber: string,
    status: 'refunded' | 'not-refunded',
    decided: string,
    at: string,
  ) {
    const keys = this.#db.all(
      `SELECT h.request_key AS key FROM refunds r JOIN history h ON h.type = 'refund' AND h.entry = r.id
       WHERE r.scope = ? AND r.invoice_number = ? AND (r.status = 'uncertain' OR r.marked = 1)`,
      scope,
      invoiceNumber,
    );
    return this.mark(
      keys.map((row) => ({ type: 'refund' as const, key: String(row.key), status, decided })),
      at,
    ).length;
  }

  /** Removes what was sent before `instant` (an ISO instant): invoices and refunds, with their history. */
  forget(instant: string): { invoices: number; refunds: number } {
    let result = { invoices: 0, refunds: 0 };
    this.#db.write(() => {
      for (const [type, table] of [
        ['invoice', 'invoices'],
        ['refund', 'refunds'],
      ] as const) {
        this.#db.run(
          `DELETE FROM history WHERE type = ? AND entry IN (SELECT id FROM ${table} WHERE sent_at < ?)`,
          type,
          instant,
        );
      }
      const invoices = this.#db.run('DELETE FROM invoices WHERE sent_at < ?', instant).changes;
      const refunds = this.#db.run('DELETE FROM refunds WHERE sent_at < ?', instant).changes;
      this.#db.run('DELETE FROM merged WHERE into_id NOT IN (SELECT id FROM invoices)');
      result = { invoices: Number(invoices), refunds: Number(refunds) };
    });
    if (result.invoices + result.refunds > 0) this.#db.exec('VACUUM');
    return result;
  }

  /** The invoices `filter` selects, newest first, one at a time, at most `limit` of them (all without one). */
  *list(filter: LedgerFilter, limit?: number): Generator<LedgerInvoice> {
    const { where, values } = filterSql(filter);
    const sql = `SELECT ${invoiceColumns} FROM invoices ${where} ORDER BY sent_at DESC, id DESC${limit === undefined ? '' : ' LIMIT ?'}`;
    const args: SqlValue[] = limit === undefined ? values : [...values, limit];
    yield* this.#db.each(sql, ...args) as Iterable<LedgerInvoice>;
  }

  /** Every invoice `filter` selects, newest first, one at a time, with its latest refund. */
  *each(filter: LedgerFilter): Generator<{ invoice: LedgerInvoice; refund?: LedgerRefund }> {
    const { where, values } = filterSql(filter);
    const rows = this.#db.each(
      `SELECT ${invoiceColumns}, (SELECT json_object('invoiceNumber', r.invoice_number, 'status', r.status,
         'amountMinor', r.amount_minor, 'currency', r.currency, 'reason', r.reason,
         'orderReference', r.order_reference, 'sentAt', r.sent_at, 'error', r.error, 'decided', r.decided)
         FROM refunds r WHERE r.scope = invoices.scope AND r.invoice_number = invoices.invoice_number
         ORDER BY r.sent_at DESC LIMIT 1) AS refund
       FROM invoices ${where} ORDER BY sent_at DESC, id DESC`,
      ...values,
    );
    for (const row of rows as Iterable<LedgerInvoice & { refund: string | null }>) {
      const { refund, ...invoice } = row;
      yield { invoice, ...(refund ? { refund: JSON.parse(refund) as LedgerRefund } : {}) };
    }
  }

  /**
   * Every invoice sent within `filter`'s instants in the numbering its service uses now, one per invoice, oldest
   * first, one at a time: what a reconciliation with another account of the invoices reads. A sandbox numbers anew
   * after a reset: its earlier invoices are no longer the service's.
   */
  *invoicesToReconcile(filter: Pick<LedgerFilter, 'since' | 'until'> = {}): Generator<InvoiceToReconcile> {
    const { where, values } = filterSql(filter);
    const rows = this.#db.each(
      `SELECT 'L' || id AS id, invoice_number AS invoiceNumber, business_reference AS businessReference,
         amount_minor AS amountMinor, coalesce(refund_status, status) AS status,
         (SELECT coalesce(sum(r.amount_minor), 0) FROM refunds r WHERE r.scope = invoices.scope
           AND r.invoice_number = invoices.invoice_number AND r.status = 'refunded') AS refundedMinor,
         sending_date AS sendingDate, sent_at AS sentAt
       FROM invoices ${where ? `${where} AND` : 'WHERE'} ${inCurrentNumbering}
       ORDER BY sent_at, id`,
      ...values,
    );
    yield* rows as Iterable<InvoiceToReconcile>;
  }

  /** How many invoices within `filter`'s instants belong to a numbering their service no longer uses. */
  invoicesOfEarlierNumberings(filter: Pick<LedgerFilter, 'since' | 'until'> = {}): number {
    const { where, values } = filterSql(filter);
    const row = this.#db.get(
      `SELECT count(*) AS count FROM invoices ${where ? `${where} AND` : 'WHERE'} NOT ${inCurrentNumbering}`,
      ...values,
    );
    return Number(row?.count ?? 0);
  }

  /** The journal's size when a run that wrote it last ended with every record in the ledger. */
  journalRecordedAt(id: string): number | undefined {
    const row = this.#db.get('SELECT size FROM journals WHERE id = ?', id);
    return row === undefined ? undefined : Number(row.size);
  }

  /** Says that every record of the journal, at this size, is in the ledger. */
  journalRecorded(id: string, size: number): void {
    this.#db.run(
      'INSERT INTO journals (id, size) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET size = excluded.size',
      id,
      size,
    );
  }

  /** The scope of the invoices `service` numbers now: the sandbox state it last answered from, or the service. */
  currentScope(service: string): string {
    return String(this.#db.get('SELECT scope FROM scopes WHERE service = ?', service)?.scope ?? service);
  }

  /**
   * The invoices with this id (`L12`), number or businessReference, newest first, each with its body, refunds and
   * history; an id that joined another entry leads to it.
   */
  find(idNumberOrReference: string): FoundInvoice[] {
    const id = entryIdOf(idNumberOrReference);
    const into = id === undefined ? undefined : this.#db.get('SELECT into_id FROM merged WHERE id = ?', id)?.into_id;
    const rows = this.#db.all(
      `SELECT ${invoiceColumns}, id AS rowId, body FROM invoices WHERE id = ?
       UNION SELECT ${invoiceColumns}, id AS rowId, body FROM invoices WHERE invoice_number = ?
       UNION SELECT ${invoiceColumns}, id AS rowId, body FROM invoices WHERE business_reference = ?
       ORDER BY sentAt DESC`,
      Number(into ?? id ?? -1),
      idNumberOrReference,
      idNumberOrReference,
    ) as unknown as Array<LedgerInvoice & { rowId: number; body: string }>;
    return rows.map(({ body, rowId, ...invoice }) => ({
      invoice,
      body: JSON.parse(body) as unknown,
      refunds: invoice.invoiceNumber === null ? [] : this.#refundsIn(invoice.scope, invoice.invoiceNumber),
      history: this.requestsOf('invoice', rowId),
    }));
  }

  /** The refunds sent for `invoiceNumber`, in any scope, newest first. */
  refundsOf(invoiceNumber: string): LedgerRefund[] {
    return this.#db.all(
      `SELECT ${refundColumns} FROM refunds WHERE invoice_number = ? ORDER BY sent_at DESC, id DESC`,
      invoiceNumber,
    ) as unknown as LedgerRefund[];
  }

  /** What the ledger holds of `invoiceNumber` in `scope`: the invoice, if this machine sent it, and its refunds. */
  standing(scope: string, invoiceNumber: string): { invoice?: LedgerInvoice; refunds: LedgerRefund[] } {
    const invoice = this.#db.get(
      `SELECT ${invoiceColumns} FROM invoices WHERE scope = ? AND invoice_number = ?`,
      scope,
      invoiceNumber,
    ) as unknown as LedgerInvoice | undefined;
    return { ...(invoice ? { invoice } : {}), refunds: this.#refundsIn(scope, invoiceNumber) };
  }

  #refundsIn(scope: string, invoiceNumber: string): LedgerRefund[] {
    return this.#db.all(
      `SELECT ${refundColumns} FROM refunds WHERE scope = ? AND invoice_number = ? ORDER BY sent_at DESC, id DESC`,
      scope,
      invoiceNumber,
    ) as unknown as LedgerRefund[];
  }

  /** Whether any invoice without a businessReference is recorded (else no record needs looking up). */
  holdsContentKeys(): boolean {
    return this.#db.get('SELECT 1 FROM invoices WHERE content_key IS NOT NULL LIMIT 1') !== undefined;
  }

  /** An invoice of another batch than `run` whose body without a businessReference is the same, if any. */
  sameContent(contentKey: string, run: string | undefined): LedgerInvoice | undefined {
    return this.#db.get(
      `SELECT ${invoiceColumns} FROM invoices WHERE content_key = ? AND run IS NOT ? AND status NOT IN ('refused', 'not-created')
       ORDER BY sent_at DESC LIMIT 1`,
      contentKey,
      run ?? null,
    ) as unknown as LedgerInvoice | undefined;
  }

  /** How many invoices and refunds the ledger holds. */
  size(): number {
    const row = this.#db.get('SELECT (SELECT count(*) FROM invoices) + (SELECT count(*) FROM refunds) AS size');
    return Number(row?.size);
  }

  close(): void {
    this.#db.close();
  }

  /** Runs `work` in a write transaction; without `wait`, false when another process is writing (nothing written). */
  #writing(wait: boolean, work: () => void): boolean {
    if (wait) {
      this.#db.write(work);
      return true;
    }
    this.#db.exec('PRAGMA busy_timeout = 0');
    try {
      this.#db.write(work);
      return true;
    } catch (error) {
      if (error instanceof LocalFileError && error.problem === 'locked') return false;
      throw error;
    } finally {
      this.#db.exec(`PRAGMA busy_timeout = ${this.#busyTimeoutMs}`);
    }
  }
}
