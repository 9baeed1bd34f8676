import { toMinorUnits } from '../schemas/money.js';
import type { Statistics } from '../schemas/statistics.js';
import { openDatabase, type Database, type Row } from './database.js';
import {
  HistoryTable,
  requestOf,
  type ReceivedRequest,
  type RequestEnding,
  type RequestPage,
} from './history-table.js';
import type { InvoiceStatus, IssuedToken, OutboxMessage, SandboxState, StoredInvoice } from './state.js';
import { computeStatistics, type StatusTotals } from './statistics.js';

/**
 * The sandbox's state, in a SQLite database: in memory, or in a file several processes share. Every change runs in
 * one transaction (so a change that throws leaves nothing behind), and a reader never waits for a writer.
 */
export interface StateStore {
  /** Runs `work` on one consistent view of the state. */
  read<T>(work: (state: StateView) => T): T;
  /**
   * Writes the whole state as the JSON text the sandbox's old state file held, but for the issued tokens (secrets),
   * and then its request history, a piece at a time, each piece awaited, all from one snapshot.
   */
  export(write: (text: string) => Promise<void>): Promise<void>;
  /** Runs `work` in one write transaction; it has committed when this returns. */
  write<T>(work: (state: StateDraft) => T): T;
  /** Runs `work` in one write transaction if the file can be written at once; undefined when another holds it. */
  tryWrite<T>(work: (state: StateDraft) => T): { value: T } | undefined;
  close(): void;
}

/** The counters of a state: the next numbers handed out, and the sandbox clock's offset from real time. */
export interface Counters {
  /** The state's name (`SandboxState.stateId`); none in a state made without one. */
  stateId?: string;
  nextInvoiceNumber: string;
  nextOrderReference: string;
  clockOffsetMs: number;
}

/** A page of invoices: the invoices, and the cursor of the next page when there is one. */
export interface InvoicePage {
  invoices: StoredInvoice[];
  next?: string;
}

/** Which invoices the dashboard shows: the newest `limit` of a status, or whose number or reference begins so. */
export interface NewestFilter {
  limit: number;
  status?: InvoiceStatus;
  search?: string;
}

/** What the handlers read. */
export interface StateView {
  counters(): Counters;
  /** The invoice numbered `invoiceNumber`, if there is one. */
  invoice(invoiceNumber: string): StoredInvoice | undefined;
  /** The invoices that may be the same invoice by rule 2.3.2: same business reference and sending date. */
  sameReference(businessReference: string, sendingDate: string): StoredInvoice[];
  /** Unpaid invoices whose release (not yet issued) or expiry date is at or before `nowIso`, in creation order. */
  due(nowIso: string, limit?: number): StoredInvoice[];
  statistics(): Statistics;
  /** Every invoice in creation order, or a page of them after the invoice numbered `after`. */
  invoices(page?: { limit?: number; after?: string }): InvoicePage;
  /** The newest invoices that pass `filter`, and how many pass it. */
  newest(filter: NewestFilter): { invoices: StoredInvoice[]; matching: number };
  /** The outbox in the order it was written; only the messages of `invoiceNumbers` when given. */
  outbox(invoiceNumbers?: string[]): OutboxMessage[];
  tokens(): IssuedToken[];
  /** The service's request history in the order received, or a page of it after the seq `after`. */
  requests(page?: { limit?: number; after?: number }): RequestPage;
}

/** What the handlers change. */
export interface StateDraft extends StateView {
  setCounters(change: Partial<Counters>): void;
  insertInvoice(invoice: StoredInvoice): void;
  saveInvoice(invoice: StoredInvoice): void;
  addMessages(messages: OutboxMessage[]): void;
  addToken(token: IssuedToken): void;
  removeToken(token: string): void;
  /** Records a request to the service as it arrives; returns its seq in the history. */
  receiveRequest(request: ReceivedRequest): number;
  /** Records how the request `seq` ended. */
  endRequest(seq: number, ending: RequestEnding): void;
  /** Replaces everything with `state`, and empties the request history. */
  replace(state: SandboxState): void;
}

/** Opens the store: in memory, or in `file` (created when missing or empty, filled by `create()` or `initial`). */
export async function openStore(options: {
  file?: string;
  /** The state a new database starts with. */
  create: () => SandboxState;
}): Promise<StateStore> {
  const database = await openDatabase(options.file, (db) => new SqlState(db).replace(options.create()));
  const state = new SqlState(database);
  return {
    read: (work) => database.read(() => work(state)),
    export: (write) => database.readAsync(() => writeState(database, state, write)),
    write: (work) => database.write(() => work(state)),
    tryWrite: (work) => database.tryWrite(() => work(state)),
    close: () => database.close(),
  };
}

/** The largest integer SQLite keeps exactly; an amount past it (a state from before the ceilings) is kept as text. */
const largestInteger = 2n ** 63n - 1n;

/** Columns of an invoice row, its document (the stored invoice as JSON) first. */
function invoiceColumns(invoice: StoredInvoice) {
  const minor = toMinorUnits(invoice.amount);
  return [
    JSON.stringify(invoice),
    invoice.invoiceNumber,
    invoice.status,
    invoice.businessReference ?? null,
    minor <= largestInteger && minor >= -largestInteger ? minor : null,
    invoice.sendingDate,
    invoice.releaseDate,
    invoice.expiryDate,
    invoice.createdAt,
    invoice.issuedAt ?? null,
  ] as const;
}

function documents(rows: Row[]): StoredInvoice[] {
  return rows.map((row) => JSON.parse(row.document as string) as StoredInvoice);
}

class SqlState implements StateDraft {
  readonly #db: Database;
  readonly #history: HistoryTable;

  constructor(db: Database) {
    this.#db = db;
    this.#history = new HistoryTable(db);
  }

  counters(): Counters {
    const values = new Map(this.#db.all('SELECT name, value FROM counters').map((row) => [row.name, row.value]));
    const stateId = values.get('stateId');
    return {
      ...(stateId !== undefined ? { stateId: String(stateId) } : {}),
      nextInvoiceNumber: String(values.get('nextInvoiceNumber')),
      nextOrderReference: String(values.get('nextOrderReference')),
      clockOffsetMs: Number(values.get('clockOffsetMs')),
    };
  }

  setCounters(change: Partial<Counters>): void {
    for (const [name, value] of Object.entries(change)) {
      this.#db.run('INSERT OR REPLACE INTO counters (name, value) VALUES (?, ?)', name, String(value));
    }
  }

  invoice(invoiceNumber: string): StoredInvoice | undefined {
    return documents(this.#db.all('SELECT document FROM invoices WHERE invoice_number = ?', invoiceNumber))[0];
  }

  sameReference(businessReference: string, sendingDate: string): StoredInvoice[] {
    return documents(
      this.#db.all(
        'SELECT document FROM invoices WHERE business_reference = ? AND sending_date = ? ORDER BY seq',
        businessReference,
        sendingDate,
      ),
    );
  }

  due(nowIso: string, limit = -1): StoredInvoice[] {
    return documents(
      this.#db.all(
        `SELECT document FROM (
           SELECT seq, document FROM invoices
            WHERE status = 'UNPAID' AND issued_at IS NULL AND release_date <= ? AND release_date < expiry_date
           UNION
           SELECT seq, document FROM invoices WHERE status = 'UNPAID' AND expiry_date <= ?
         ) ORDER BY seq LIMIT ?`,
        nowIso,
        nowIso,
        limit,
      ),
    );
  }

  statistics(): Statistics {
    // Sums of the billions and of the rest stay within SQLite's integers however many invoices there are.
    const totals: StatusTotals[] = this.#db
      .allExact(
        `SELECT status, count(*) AS count,
                coalesce(sum(amount_minor / 1000000000), 0) AS high, coalesce(sum(amount_minor % 1000000000), 0) AS low
           FROM invoices GROUP BY status`,
      )
      .map((row) => ({
        status: row.status as StatusTotals['status'],
        count: Number(row.count),
        minor: (row.high as bigint) * 1_000_000_000n + (row.low as bigint),
      }));
    // Amounts past SQLite's integers, which only a state from before the ceilings holds.
    for (const row of this.#db.all('SELECT status, document FROM invoices WHERE amount_minor IS NULL')) {
      const group = totals.find((total) => total.status === row.status);
      const { amount } = JSON.parse(row.document as string) as StoredInvoice;
      if (group) group.minor += toMinorUnits(amount);
    }
    return computeStatistics(totals);
  }

  invoices(page: { limit?: number; after?: string } = {}): InvoicePage {
    const afterSeq = page.after === undefined ? 0 : this.#seqOf(page.after);
    if (afterSeq === undefined) return { invoices: [] };
    const limit = page.limit ?? -1;
    const rows = this.#db.all(
      'SELECT document FROM invoices WHERE seq > ? ORDER BY seq LIMIT ?',
      afterSeq,
      limit < 0 ? -1 : limit + 1,
    );
    return pageOf(documents(rows), limit);
  }

  newest(filter: NewestFilter): { invoices: StoredInvoice[]; matching: number } {
    const conditions: string[] = [];
    const values: string[] = [];
    if (filter.status) {
      conditions.push('status = ?');
      values.push(filter.status);
    }
    if (filter.search) {
      // Ranges rather than LIKE: each is an index search, and case and wildcards mean nothing.
      conditions.push(
        `seq IN (SELECT seq FROM invoices WHERE invoice_number >= ? AND invoice_number < ? || char(1114111)
                 UNION ALL
                 SELECT seq FROM invoices WHERE business_reference >= ? AND business_reference < ? || char(1114111))`,
      );
      values.push(filter.search, filter.search, filter.search, filter.search);
    }
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    // The page is chosen from the indexes first; only its invoices are read whole.
    const rows = this.#db.all(
      `SELECT document FROM invoices
        WHERE seq IN (SELECT seq FROM invoices ${where} ORDER BY created_at DESC, seq DESC LIMIT ?)
        ORDER BY created_at DESC, seq DESC`,
      ...values,
      filter.limit,
    );
    const counted = this.#db.get(`SELECT count(*) AS matching FROM invoices ${where}`, ...values);
    return { invoices: documents(rows), matching: Number(counted?.matching ?? 0) };
  }

  outbox(invoiceNumbers?: string[]): OutboxMessage[] {
    const rows =
      invoiceNumbers === undefined
        ? this.#db.all('SELECT message FROM outbox ORDER BY seq')
        : this.#db.all(
            'SELECT message FROM outbox WHERE invoice_number IN (SELECT value FROM json_each(?)) ORDER BY seq',
            JSON.stringify(invoiceNumbers),
          );
    return rows.map((row) => JSON.parse(row.message as string) as OutboxMessage);
  }

  tokens(): IssuedToken[] {
    return this.#db.all('SELECT token, expires_at FROM tokens ORDER BY rowid').map((row) => ({
      token: row.token as string,
      expiresAt: row.expires_at as string,
    }));
  }

  requests(page?: { limit?: number; after?: number }): RequestPage {
    return this.#history.page(page);
  }

  receiveRequest(request: ReceivedRequest): number {
    return this.#history.receive(request);
  }

  endRequest(seq: number, ending: RequestEnding): void {
    this.#history.end(seq, ending);
  }

  insertInvoice(invoice: StoredInvoice): void {
    this.#db.run(
      `INSERT INTO invoices (document, invoice_number, status, business_reference, amount_minor, sending_date,
                             release_date, expiry_date, created_at, issued_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ...invoiceColumns(invoice),
    );
  }

  saveInvoice(invoice: StoredInvoice): void {
    const [document, invoiceNumber, status, , , , , , , issuedAt] = invoiceColumns(invoice);
    this.#db.run(
      'UPDATE invoices SET document = ?, status = ?, issued_at = ? WHERE invoice_number = ?',
      document,
      status,
      issuedAt,
      invoiceNumber,
    );
  }

  addMessages(messages: OutboxMessage[]): void {
    for (const message of messages) {
      this.#db.run(
        'INSERT INTO outbox (invoice_number, message) VALUES (?, ?)',
        message.invoiceNumber,
        JSON.stringify(message),
      );
    }
  }

  addToken(token: IssuedToken): void {
    this.#db.run('INSERT OR REPLACE INTO tokens (token, expires_at) VALUES (?, ?)', token.token, token.expiresAt);
  }

  removeToken(token: string): void {
    this.#db.run('DELETE FROM tokens WHERE token = ?', token);
  }

  replace(state: SandboxState): void {
    for (const table of ['counters', 'invoices', 'outbox', 'tokens']) this.#db.run(`DELETE FROM ${table}`);
    this.#history.clear();
    const { stateId, nextInvoiceNumber, nextOrderReference, clockOffsetMs } = state;
    this.setCounters({
      ...(stateId !== undefined ? { stateId } : {}),
      nextInvoiceNumber,
      nextOrderReference,
      clockOffsetMs,
    });
    for (const invoice of state.invoices) this.insertInvoice(invoice);
    this.addMessages(state.outbox);
    for (const token of state.tokens) this.addToken(token);
  }

  #seqOf(invoiceNumber: string): number | undefined {
    const row = this.#db.get('SELECT seq FROM invoices WHERE invoice_number = ?', invoiceNumber);
    return row === undefined ? undefined : Number(row.seq);
  }
}

/** Writes the state as `JSON.stringify(state, null, 2)` would, without holding every invoice in memory at once. */
async function writeState(database: Database, state: SqlState, write: (text: string) => Promise<void>) {
  const head = JSON.stringify({ version: 1, ...state.counters() }, null, 2);
  let text = head.slice(0, -2);
  const documentOf = (column: string) => (row: Row) => JSON.parse(row[column] as string) as unknown;
  const lists: Array<[string, Iterable<Row>, (row: Row) => unknown]> = [
    ['invoices', database.each('SELECT document FROM invoices ORDER BY seq'), documentOf('document')],
    ['outbox', database.each('SELECT message FROM outbox ORDER BY seq'), documentOf('message')],
    // Issued tokens are secrets: they are not printed, and a state read back from this text has none.
    ['tokens', [], () => undefined],
    ['requests', database.each('SELECT * FROM requests ORDER BY seq'), requestOf],
  ];
  for (const [name, rows, itemOf] of lists) {
    text += `,\n  "${name}": [`;
    let empty = true;
    for (const row of rows) {
      const item = JSON.stringify(itemOf(row), null, 2).replaceAll('\n', '\n    ');
      text += `${empty ? '' : ','}\n    ${item}`;
      empty = false;
      // Pieces of many rows each: few writes, little memory.
      if (text.length > 65_536) {
        await write(text);
        text = '';
      }
    }
    text += empty ? ']' : '\n  ]';
  }
  await write(`${text}\n}\n`);
}

/** The first `limit` invoices of `rows` (which holds one more when there is a next page), and that page's cursor. */
function pageOf(rows: StoredInvoice[], limit: number): InvoicePage {
  if (limit < 0 || rows.length <= limit) return { invoices: rows };
  const invoices = rows.slice(0, limit);
  return { invoices, next: invoices.at(-1)?.invoiceNumber };
}
