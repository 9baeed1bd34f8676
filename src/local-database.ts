import { access, chmod, constants, open, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DatabaseSync, SQLInputValue, StatementResultingChanges, StatementSync } from 'node:sqlite';
import { LocalFileError, type LocalFileProblem } from './errors.js';
import { makePrivateFolder } from './private-file.js';

// The one module that speaks to node:sqlite. It opens the SQLite files einvoice keeps (the sandbox's state, a
// ledger), refuses each way such a file can be unusable before it changes a byte of it, and runs transactions.

export type SqlValue = SQLInputValue;
export type Row = Record<string, SqlValue>;

/** What a file is and the schema it holds, for `openLocalDatabase()`. */
export interface LocalDatabaseOptions {
  /** The file as the merchant knows it, beginning every refusal: "The sandbox's state file". */
  description: string;
  /** Marks the file as einvoice's (PRAGMA application_id): a 32-bit number of its own for each kind of file. */
  application: number;
  /** The version of the schema this einvoice keeps (PRAGMA user_version), 1 or more. */
  version: number;
  /**
   * Brings the database from version `from` (0: a new, empty one) to `version`, in the opening's write transaction:
   * the first process to open a new file writes its schema, and what it fills in, whole or not at all.
   */
  migrate(database: LocalDatabase, from: number): void;
  /**
   * Reads every page once while opening a file of at most this many bytes (PRAGMA quick_check), so a corrupted page
   * is named before any work. Past it, a corrupted page is refused when a statement meets it.
   */
  verifyUpToBytes?: number;
  /** How long a statement waits for another process's transaction before it fails (default 30 s). */
  busyTimeoutMs?: number;
  /**
   * A file of this kind written before its files were marked (application_id 0, a `user_version` of 1 or more): true
   * when its schema is this kind's, so it is brought up to date rather than refused as another program's.
   */
  recognizeUnmarked?(database: LocalDatabase, version: number): boolean;
}

/** The default of `busyTimeoutMs`. */
export const defaultBusyTimeoutMs = 30_000;

/** SQLite's primary result codes that say what is wrong with a file (the low byte of `errcode`). */
const sqliteCodes = { busy: 5, locked: 6, readOnly: 8, corrupt: 11, cantOpen: 14, notADatabase: 26 } as const;

/** A SQLite database einvoice keeps: statements, and transactions that run a function whole or not at all. */
export class LocalDatabase {
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();
  readonly #refuse: Refuse;

  constructor(db: DatabaseSync, refuse: Refuse) {
    this.#db = db;
    this.#refuse = refuse;
  }

  /** Runs `work` in a write transaction: BEGIN IMMEDIATE, so two writers never both read then collide. */
  write<T>(work: () => T): T {
    return this.#transaction('BEGIN IMMEDIATE', work);
  }

  /**
   * Runs `work` in a write transaction only if no other connection holds the write lock now: what can wait for a
   * later turn (a record kept for its own sake) never holds up the process. Undefined when the lock is held.
   */
  tryWrite<T>(work: () => T): { value: T } | undefined {
    if (this.#db.isTransaction) return { value: work() };
    this.exec('PRAGMA busy_timeout = 0');
    try {
      this.#db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      const code = Number((error as { errcode?: unknown }).errcode) & 0xff;
      if (code === sqliteCodes.busy || code === sqliteCodes.locked) return undefined;
      throw fileProblem(error, this.#refuse) ?? error;
    } finally {
      this.exec(`PRAGMA busy_timeout = ${this.#refuse.waitedMs ?? defaultBusyTimeoutMs}`);
    }
    try {
      const value = work();
      this.exec('COMMIT');
      return { value };
    } catch (error) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      throw error;
    }
  }

  /** Runs `work` on one snapshot of the database; it never waits for a writer. */
  read<T>(work: () => T): T {
    return this.#transaction('BEGIN', work);
  }

  /** Runs `work`, which may wait (for a slow reader of its output), on one snapshot of the database. */
  async readAsync<T>(work: () => Promise<T>): Promise<T> {
    this.exec('BEGIN');
    try {
      return await work();
    } finally {
      this.exec('COMMIT');
    }
  }

  #transaction<T>(begin: string, work: () => T): T {
    // A nested call (a step that reads, within a change) joins the transaction under way.
    if (this.#db.isTransaction) return work();
    this.exec(begin);
    try {
      const result = work();
      this.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      throw error;
    }
  }

  /** Runs statements without values: a schema, a pragma. */
  exec(sql: string): void {
    this.#guard(() => this.#db.exec(sql));
  }

  /** The rows `sql` selects. */
  all(sql: string, ...values: SqlValue[]): Row[] {
    return this.#guard(() => this.#statement(sql).all(...values) as Row[]);
  }

  /** The rows `sql` selects, one at a time. */
  each(sql: string, ...values: SqlValue[]): Iterable<Row> {
    const rows = this.#guard(() => this.#db.prepare(sql).iterate(...values)) as Iterator<Row>;
    const iterator: Iterator<Row> = {
      next: () => this.#guard(() => rows.next()),
      // A reader that stops early lets go of the statement.
      return: (value?: Row) => rows.return?.(value) ?? { done: true, value },
    };
    return { [Symbol.iterator]: () => iterator };
  }

  /** The first row `sql` selects, if any. */
  get(sql: string, ...values: SqlValue[]): Row | undefined {
    return this.#guard(() => this.#statement(sql).get(...values) as Row | undefined);
  }

  /** Runs a statement that changes rows; says how many it changed, and the rowid of the last row it inserted. */
  run(sql: string, ...values: SqlValue[]): StatementResultingChanges {
    return this.#guard(() => this.#statement(sql).run(...values));
  }

  /** The rows `sql` selects, with integers read as bigint (exact past 2^53). */
  allExact(sql: string, ...values: SqlValue[]): Row[] {
    return this.#guard(() => {
      const statement = this.#db.prepare(sql);
      statement.setReadBigInts(true);
      return statement.all(...values) as Row[];
    });
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

  /** Runs `step`; a failure that is the file's (a corrupted page found, a lock held too long) names the file. */
  #guard<T>(step: () => T): T {
    try {
      return step();
    } catch (error) {
      throw fileProblem(error, this.#refuse) ?? error;
    }
  }
}

/** Makes the refusal of one file, with the advice for its problem. */
interface Refuse {
  (problem: LocalFileProblem, reason: string, cause?: unknown): LocalFileError;
  /** How long a statement waits for another process's transaction. */
  waitedMs?: number;
}

/** What to do about each problem, whoever opened the file; the opener adds its own ways out (`withRemedies()`). */
const advice: Record<LocalFileProblem, string> = {
  foreign: 'einvoice did not make it and leaves it as it is: give einvoice another file.',
  damaged:
    'einvoice leaves it as it is. Move it away (with any -wal and -shm file beside it) to start a new one, and keep ' +
    'it if you want to look into it.',
  newer: 'einvoice leaves it as it is: use it with the newer einvoice, or give this one another file.',
  'read-only':
    'einvoice writes to it and beside it (SQLite keeps -wal and -shm files there): make the file and its folder ' +
    'writable for you, or give einvoice another file.',
  locked: 'Another process holds it: let that einvoice command finish, or stop it, and run again.',
  unreachable: 'Move what stands in its place away, or give einvoice a file in a folder you can write to.',
};

/** The refusals of `file`. */
function refusals(file: string, description: string, busyTimeoutMs: number): Refuse {
  const refuse: Refuse = (problem, reason, cause) =>
    new LocalFileError(`${description} ${file} ${reason}`, { file, problem, advice: advice[problem], cause });
  refuse.waitedMs = busyTimeoutMs;
  return refuse;
}

/** The refusal that a SQLite failure amounts to, when it is the file's; undefined for any other failure. */
function fileProblem(error: unknown, refuse: Refuse): LocalFileError | undefined {
  if (error instanceof LocalFileError) return error;
  const { errcode, message } = error as { errcode?: unknown; message?: string };
  if (typeof errcode !== 'number') return undefined;
  switch (errcode & 0xff) {
    case sqliteCodes.corrupt:
    case sqliteCodes.notADatabase:
      return refuse('damaged', `is damaged: a page of its database is corrupted (${message}).`, error);
    case sqliteCodes.busy:
    case sqliteCodes.locked:
      return refuse(
        'locked',
        `is held by another process: einvoice waited ${waited(refuse.waitedMs ?? 0)} for it.`,
        error,
      );
    case sqliteCodes.readOnly:
      return refuse('read-only', `cannot be written (${message}).`, error);
    case sqliteCodes.cantOpen:
      return refuse('unreachable', `cannot be opened (${message}).`, error);
    default:
      return undefined;
  }
}

/** A wait in the unit a merchant reads it in: "30 s", "50 ms". */
function waited(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}

/**
 * Opens the SQLite database in `file` (created when missing or empty, the user's alone, in a folder of the user's
 * alone), or in memory when `file` is undefined. A file that cannot be used is refused with LocalFileError (exit
 * 10), naming it and what to do, before anything in it changes: not a database of this kind (foreign), cut short or
 * with a corrupted page (damaged), of a newer version (newer), not writable (read-only), held by another process
 * (locked), or no file at all (unreachable).
 */
export async function openLocalDatabase(file: string | undefined, options: LocalDatabaseOptions) {
  const { DatabaseSync } = await loadSqlite();
  const busyTimeoutMs = options.busyTimeoutMs ?? defaultBusyTimeoutMs;
  if (file === undefined) {
    const refuseMemory = refusals(':memory:', options.description, busyTimeoutMs);
    const database = new LocalDatabase(new DatabaseSync(':memory:'), refuseMemory);
    database.write(() => migrate(database, 0, options));
    return database;
  }
  const refuse = refusals(file, options.description, busyTimeoutMs);
  const header = await readHeader(file, refuse);
  if (header) {
    const logged = await hasLog(file);
    // With a write-ahead log beside it, the file's newest pages may be there (a checkpoint of another process, or one
    // a full disk cut short, writes the first page with the new page count before the pages it adds): SQLite's own
    // read, below, says whether it is whole.
    if (!logged) refuseHeader(header, refuse);
    let reader: LocalDatabase;
    try {
      reader = new LocalDatabase(new DatabaseSync(readOnlyLook(file, logged), { readOnly: true }), refuse);
    } catch (error) {
      throw fileProblem(error, refuse) ?? error;
    }
    try {
      reader.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
      const verify = header.fileSize <= (options.verifyUpToBytes ?? 0);
      reader.read(() => refuseContent(reader, options, refuse, verify));
    } finally {
      reader.close();
    }
  }
  await prepareFolder(file, header !== undefined, refuse);
  await makePrivate(file);
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(file);
  } catch (error) {
    throw fileProblem(error, refuse) ?? error;
  }
  const database = new LocalDatabase(db, refuse);
  try {
    database.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
    // WAL: readers never wait for a writer. NORMAL: a commit survives the process being killed.
    await whileBusy(() => database.exec('PRAGMA journal_mode = WAL'), busyTimeoutMs);
    database.exec('PRAGMA synchronous = NORMAL');
    // A file of this version is only read: it opens at once while another process writes to it. Another process may
    // have made or changed the file since it was looked at: the same checks, in the transaction that writes the schema.
    const found = database.read(() => refuseContent(database, options, refuse, false));
    if (found !== options.version) {
      database.write(() => migrate(database, refuseContent(database, options, refuse, false), options));
    }
  } catch (error) {
    database.close();
    throw fileProblem(error, refuse) ?? error;
  }
  return database;
}

/**
 * The address of `file` for a look that changes nothing: SQLite's own answers (the schema, a corrupted page) before
 * the file is opened for writing. Without a write-ahead log beside it, the file is all there is, and it is read as
 * immutable, which makes no -wal or -shm file; with one, the log's newer pages are read too.
 */
function readOnlyLook(file: string, logged: boolean): URL {
  const address = pathToFileURL(file);
  if (!logged) address.searchParams.set('immutable', '1');
  return address;
}

/** Whether a write-ahead log with something in it is beside `file`. */
async function hasLog(file: string): Promise<boolean> {
  return stat(`${file}-wal`).then(
    (info) => info.size > 0,
    () => false,
  );
}

/** Brings `database` from version `from` to the options' version, and marks it as einvoice's. */
function migrate(database: LocalDatabase, from: number, options: LocalDatabaseOptions): void {
  if (from === options.version) return;
  // A new file, or one written before its kind's files were marked.
  database.exec(`PRAGMA application_id = ${options.application}`);
  options.migrate(database, from);
  database.exec(`PRAGMA user_version = ${options.version}`);
}

/** What the first 100 bytes of a SQLite file say. */
interface Header {
  fileSize: number;
  pageSize: number;
  /** The number of pages the header counts, when it is up to date (else 0: SQLite then goes by the file's size). */
  pageCount: number;
}

const sqliteMagic = 'SQLite format 3\u0000';
const headerSize = 100;

/**
 * The header of `file`, read without opening it as a database; undefined for a missing or empty file (a new
 * database). Refuses a folder, and a file that does not begin as a SQLite file does.
 */
async function readHeader(file: string, refuse: Refuse): Promise<Header | undefined> {
  let info;
  try {
    // Looked at before it is opened: opening a named pipe would wait for a writer.
    info = await stat(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ENOTDIR') throw refuse('unreachable', 'cannot be made: a file stands where a folder would.', error);
    throw error;
  }
  if (!info.isFile()) throw refuse('unreachable', info.isDirectory() ? 'is a folder, not a file.' : 'is not a file.');
  if (info.size === 0) return undefined;
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EACCES') throw refuse('read-only', 'cannot be read.', error);
    throw error;
  }
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(headerSize), 0, headerSize, 0);
    if (buffer.subarray(0, Math.min(bytesRead, 16)).toString('latin1') !== sqliteMagic.slice(0, bytesRead)) {
      throw refuse('foreign', 'is not a database einvoice made: it is not a SQLite file.');
    }
    if (bytesRead < headerSize) {
      throw refuse('damaged', `is damaged: it is cut short (${info.size} bytes, short of its own header).`);
    }
    const rawPageSize = buffer.readUInt16BE(16);
    const pageSize = rawPageSize === 1 ? 65_536 : rawPageSize;
    // A page size is a power of two from 512 to 65536.
    if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) {
      throw refuse('damaged', 'is damaged: its header is corrupted.');
    }
    // The page count is up to date when the change counter matches the "version valid for" number.
    const pageCount = buffer.readUInt32BE(24) === buffer.readUInt32BE(92) ? buffer.readUInt32BE(28) : 0;
    return {
      fileSize: info.size,
      pageSize,
      pageCount,
    };
  } finally {
    await handle.close();
  }
}

/** Refuses, from its header alone, a file cut short. */
function refuseHeader(header: Header, refuse: Refuse): void {
  const expected = header.pageCount * header.pageSize;
  if (header.fileSize < expected || header.fileSize % header.pageSize !== 0) {
    throw refuse(
      'damaged',
      `is damaged: it is cut short (${header.fileSize} bytes${expected > 0 ? ` of the ${expected} its header counts` : ''}).`,
    );
  }
}

function refuseNewer(found: number, options: LocalDatabaseOptions, refuse: Refuse): LocalFileError {
  return refuse(
    'newer',
    `was written by a newer einvoice (version ${found}; this einvoice keeps version ${options.version}).`,
  );
}

/**
 * The version of the database `database` holds (0: none yet), or its refusal: another program's, a newer
 * einvoice's, a corrupted page (with `verify`). Runs inside a transaction, so what it reads is one snapshot.
 */
function refuseContent(
  database: LocalDatabase,
  options: LocalDatabaseOptions,
  refuse: Refuse,
  verify: boolean,
): number {
  const application = Number(database.get('PRAGMA application_id')?.application_id);
  const version = Number(database.get('PRAGMA user_version')?.user_version);
  // Reading the schema parses it: a corrupted first page is found here.
  const empty = database.get('SELECT 1 FROM sqlite_schema') === undefined;
  const unmarked = application === 0 && (empty ? version === 0 : options.recognizeUnmarked?.(database, version));
  if (application !== options.application && !unmarked) {
    throw refuse('foreign', 'is not a database einvoice made: it is the SQLite database of another program.');
  }
  if (version > options.version) throw refuseNewer(version, options, refuse);
  if (verify) {
    const found = String(database.get('PRAGMA quick_check(1)')?.quick_check);
    if (found !== 'ok') {
      // Its first line names the database ("*** in database main ***"), not the page.
      const pages = found.split('\n').filter((line) => !line.startsWith('***'));
      throw refuse('damaged', `is damaged: a page of its database is corrupted (${pages.join(' ')}).`);
    }
  }
  return version;
}

/** Makes the folder of `file` (the user's alone) when it is missing, and refuses a file or folder not writable. */
async function prepareFolder(file: string, exists: boolean, refuse: Refuse): Promise<void> {
  const folder = dirname(file);
  try {
    await makePrivateFolder(folder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EROFS') throw refuse('read-only', `cannot be made in ${folder} (${code}).`);
    if (code === 'ENOTDIR' || code === 'EEXIST') {
      throw refuse('unreachable', 'cannot be made: a file stands where a folder would.', error);
    }
    if (code === 'ENOENT')
      throw refuse('unreachable', `cannot be made: its folder ${folder} cannot be made (ENOENT).`, error);
    throw error;
  }
  for (const [path, what] of [...(exists ? [[file, 'the file'] as const] : []), [folder, 'its folder'] as const]) {
    try {
      await access(path, constants.W_OK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'EACCES';
      throw refuse('read-only', `cannot be written: ${what} is read-only (${code}).`, error);
    }
  }
}

/**
 * The file the user's alone, made when missing. SQLite gives its -wal and -shm files the mode of the database file,
 * so making it first, 0600, keeps them private too.
 */
async function makePrivate(file: string): Promise<void> {
  const handle = await open(file, 'a', 0o600);
  try {
    const info = await handle.stat();
    if (info.isFile() && (info.mode & 0o077) !== 0) await chmod(file, 0o600);
  } finally {
    await handle.close();
  }
}

/**
 * Runs `change` again while the database is locked by another process: SQLite answers a change of journal mode at
 * once with "database is locked" rather than waiting out the busy timeout, which two runs opening one new file meet.
 */
async function whileBusy(change: () => void, timeoutMs: number): Promise<void> {
  for (const started = Date.now(); ;) {
    try {
      return change();
    } catch (error) {
      const locked = error instanceof LocalFileError && error.problem === 'locked';
      if (!locked || Date.now() - started > timeoutMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

let sqlite: Promise<typeof import('node:sqlite')> | undefined;

/**
 * Loads node:sqlite. Node 22 warns on loading it that it is experimental: that one warning is not the merchant's
 * business, so it alone is left out, and only while the module loads.
 */
export function loadSqlite(): Promise<typeof import('node:sqlite')> {
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
