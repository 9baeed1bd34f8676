import { chmod, mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { StateFileError } from './state.js';

// The one module that speaks to node:sqlite: it opens the sandbox's database, sets its pragmas and keeps its schema.
// A later Node that renames DatabaseSync changes this file only.

/** The version of the schema below, kept in the file's user_version. */
export const schemaVersion = 1;

/** How long a change waits for another process's transaction to end before it fails. */
const busyTimeoutMs = 30_000;

const schema = `
  CREATE TABLE counters (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE invoices (
    seq INTEGER PRIMARY KEY,
    invoice_number TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL,
    business_reference TEXT,
    amount_minor INTEGER,
    sending_date TEXT NOT NULL,
    release_date TEXT NOT NULL,
    expiry_date TEXT NOT NULL,
    created_at TEXT NOT NULL,
    issued_at TEXT,
    document TEXT NOT NULL
  );
  CREATE INDEX invoices_same ON invoices (business_reference, sending_date) WHERE business_reference IS NOT NULL;
  CREATE INDEX invoices_to_release ON invoices (status, release_date) WHERE issued_at IS NULL;
  CREATE INDEX invoices_to_expire ON invoices (status, expiry_date);
  CREATE INDEX invoices_totals ON invoices (status, amount_minor);
  CREATE INDEX invoices_beyond_integers ON invoices (status) WHERE amount_minor IS NULL;
  CREATE INDEX invoices_newest ON invoices (created_at, seq);
  CREATE INDEX invoices_newest_by_status ON invoices (status, created_at, seq);
  CREATE TABLE outbox (seq INTEGER PRIMARY KEY, invoice_number TEXT NOT NULL, message TEXT NOT NULL);
  CREATE INDEX outbox_by_invoice ON outbox (invoice_number);
  CREATE TABLE tokens (token TEXT PRIMARY KEY, expires_at TEXT NOT NULL);
`;

export type SqlValue = SQLInputValue;
export type Row = Record<string, SqlValue>;

/** The sandbox's database: statements, and transactions that run a function whole or not at all. */
export class Database {
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  /** Runs `work` in a write transaction: BEGIN IMMEDIATE, so two writers never both read then collide. */
  write<T>(work: () => T): T {
    return this.#transaction('BEGIN IMMEDIATE', work);
  }

  /** Runs `work` on one snapshot of the database; it never waits for a writer. */
  read<T>(work: () => T): T {
    return this.#transaction('BEGIN', work);
  }

  /** Runs `work`, which may wait (for a slow reader of its output), on one snapshot of the database. */
  async readAsync<T>(work: () => Promise<T>): Promise<T> {
    this.#db.exec('BEGIN');
    try {
      return await work();
    } finally {
      this.#db.exec('COMMIT');
    }
  }

  #transaction<T>(begin: string, work: () => T): T {
    // A nested call (a handler's step that reads) joins the transaction under way.
    if (this.#db.isTransaction) return work();
    this.#db.exec(begin);
    try {
      const result = work();
      this.#db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      throw error;
    }
  }

  /** The rows `sql` selects. */
  all(sql: string, ...values: SqlValue[]): Row[] {
    return this.#statement(sql).all(...values) as Row[];
  }

  /** The rows `sql` selects, one at a time. */
  each(sql: string, ...values: SqlValue[]): Iterable<Row> {
    const rows = this.#db.prepare(sql).iterate(...values);
    return { [Symbol.iterator]: () => rows as Iterator<Row> };
  }

  /** The first row `sql` selects, if any. */
  get(sql: string, ...values: SqlValue[]): Row | undefined {
    return this.#statement(sql).get(...values) as Row | undefined;
  }

  /** Runs a statement that changes rows. */
  run(sql: string, ...values: SqlValue[]): void {
    this.#statement(sql).run(...values);
  }

  /** The rows `sql` selects, with integers read as bigint (exact past 2^53). */
  allExact(sql: string, ...values: SqlValue[]): Row[] {
    const statement = this.#db.prepare(sql);
    statement.setReadBigInts(true);
    return statement.all(...values) as Row[];
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close();
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

/**
 * Runs `change` again while the database is locked by another process: SQLite answers a change of journal mode at
 * once with "database is locked" rather than waiting out the busy timeout, which two runs opening one new file meet.
 */
async function whileBusy(change: () => void): Promise<void> {
  for (const started = Date.now(); ;) {
    try {
      return change();
    } catch (error) {
      const locked = /database is locked/.test((error as Error).message);
      if (!locked || Date.now() - started > busyTimeoutMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/**
 * Opens the database in `file` (created, the user's alone, in a folder of the user's alone), or in memory. The
 * schema is written by the first process to open a new file; `initialize` then fills it, in the same transaction.
 * A file that holds anything but a SQLite database is refused with StateFileError, and left as it was.
 */
export async function openDatabase(file: string | undefined, initialize: (database: Database) => void) {
  const { DatabaseSync } = await loadSqlite();
  if (file !== undefined) {
    await refuseOtherFile(file);
    await createPrivateFile(file);
  }
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(file ?? ':memory:');
  } catch (error) {
    throw new StateFileError(`${file} cannot be opened as the sandbox's database: ${(error as Error).message}`);
  }
  const database = new Database(db);
  try {
    db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
    if (file !== undefined) {
      // WAL: readers never wait for a writer. NORMAL: a commit survives the process being killed.
      await whileBusy(() => db.exec('PRAGMA journal_mode = WAL'));
      db.exec('PRAGMA synchronous = NORMAL');
    }
    database.write(() => {
      const version = Number((database.get('PRAGMA user_version') as { user_version: number }).user_version);
      if (version === schemaVersion) return;
      if (version !== 0) {
        throw new StateFileError(
          `${file} is a sandbox database of another version (${version}); this einvoice reads version ${schemaVersion}`,
        );
      }
      if (database.get('SELECT 1 FROM sqlite_schema')) throw new StateFileError(`${file} is not a sandbox database`);
      db.exec(schema);
      db.exec(`PRAGMA user_version = ${schemaVersion}`);
      initialize(database);
    });
  } catch (error) {
    database.close();
    if (error instanceof StateFileError) throw error;
    const { code, message } = error as { code?: string; message: string };
    if (code === 'ERR_SQLITE_ERROR' && /not a database|malformed/.test(message)) {
      throw new StateFileError(`${file} is not a sandbox database: ${message}`);
    }
    throw error;
  }
  return database;
}

/**
 * Throws StateFileError when `file` holds something (text, JSON, anything) that does not begin with SQLite's header;
 * a missing or empty file is a new database. Checked before the file is made private, so that one refused is left as
 * it was, mode included.
 */
async function refuseOtherFile(file: string): Promise<void> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(16), 0, 16, 0);
    if (bytesRead > 0 && buffer.toString('latin1') !== 'SQLite format 3\u0000') {
      throw new StateFileError(`${file} is not a sandbox database: it is not a SQLite file`);
    }
  } finally {
    await handle.close();
  }
}

/**
 * The file, and its folder, the user's alone. SQLite gives its -wal and -shm files the mode of the database file,
 * so making it first, 0600, keeps them private too.
 */
async function createPrivateFile(file: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const handle = await open(file, 'a', 0o600);
  try {
    const info = await handle.stat();
    if (info.isFile() && (info.mode & 0o077) !== 0) await chmod(file, 0o600);
  } finally {
    await handle.close();
  }
}

let sqlite: Promise<typeof import('node:sqlite')> | undefined;

/**
 * Loads node:sqlite. Node 22 warns on loading it that it is experimental: that one warning is not the merchant's
 * business, so it alone is left out, and only while the module loads.
 */
function loadSqlite(): Promise<typeof import('node:sqlite')> {
  sqlite ??= (async () => {
    const emitWarning = process.emitWarning;
    process.emitWarning = withoutSqliteWarning(emitWarning);
    try {
      return await import('node:sqlite');
    } finally {
      process.emitWarning = emitWarning;
    }
  })();
  return sqlite;
}

/** `emitWarning`, but for the ExperimentalWarning Node 22 gives on loading node:sqlite; every other warning passes. */
export function withoutSqliteWarning(emitWarning: typeof process.emitWarning): typeof process.emitWarning {
  return function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const option = rest[0];
    const type =
      typeof warning !== 'string'
        ? warning.name
        : typeof option === 'string'
          ? option
          : (option as { type?: string } | undefined)?.type;
    const text = typeof warning === 'string' ? warning : warning.message;
    if (type === 'ExperimentalWarning' && /^SQLite is an experimental feature/.test(text)) return;
    return Reflect.apply(emitWarning, process, [warning, ...rest]) as void;
  } as typeof process.emitWarning;
}
