import { chmod, open, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { LocalFileError } from '../errors.js';
import { loadSqlite } from '../local-database.js';
import { makePrivateFolder } from '../private-file.js';

// Opens the ledger's SQLite file: private (0600 in a 0700 folder), WAL so that a `list` never waits for a bulk run
// and many runs write at once, and synchronous=NORMAL so that a commit survives the process being killed. Kept
// small and apart so that the one module that opens einvoice's local databases can take its place in one call.

/** The version of the ledger's schema, kept in the file's user_version. */
export const ledgerSchemaVersion = 1;

/** How long a write waits for another process's transaction before it gives up (a send never waits on it). */
export const ledgerBusyTimeoutMs = 10_000;

/** What a refusal of a ledger adds to the advice: how to start a new one, and bring the runs back in. */
const remedies = [
  'A new ledger starts where this one was once it is moved away; einvoice invoices import JOURNAL brings bulk runs back in.',
  'EINVOICE_LEDGER_DIR=FOLDER keeps the ledgers in another folder.',
];

/** Opens (and with `create`, makes) the ledger at `file`; undefined when there is none and `create` is false. */
export async function openLedgerFile(
  file: string,
  schema: string,
  options: { create: boolean },
): Promise<DatabaseSync | undefined> {
  const exists = await stat(file).then(
    () => true,
    () => false,
  );
  if (!exists && !options.create) return undefined;
  await refuseOtherFile(file);
  if (!exists) await createPrivateFile(file);
  const { DatabaseSync } = await loadSqlite();
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(file);
  } catch (error) {
    throw damaged(file, (error as Error).message);
  }
  try {
    db.exec(`PRAGMA busy_timeout = ${ledgerBusyTimeoutMs}`);
    await whileBusy(() => db.exec('PRAGMA journal_mode = WAL'));
    db.exec('PRAGMA synchronous = NORMAL');
    // Reading the version takes no lock: a ledger another process is writing opens at once.
    const versionOf = () => Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
    if (versionOf() === 0) {
      db.exec('BEGIN IMMEDIATE');
      try {
        // The first process to take the lock writes the schema; the others find it written.
        if (versionOf() === 0) {
          if (db.prepare('SELECT 1 FROM sqlite_schema').get()) throw damaged(file, 'it is not an einvoice ledger');
          db.exec(schema);
          db.exec(`PRAGMA user_version = ${ledgerSchemaVersion}`);
        }
        db.exec('COMMIT');
      } catch (error) {
        if (db.isTransaction) db.exec('ROLLBACK');
        throw error;
      }
    }
    const version = versionOf();
    if (version !== ledgerSchemaVersion) {
      throw new LocalFileError(
        `The ledger ${file} is of another einvoice (version ${version}; this one reads version ${ledgerSchemaVersion}).`,
        {
          file,
          problem: 'newer',
          advice: 'einvoice leaves it as it is: use it with the einvoice that wrote it, or move it away.',
          remedies,
        },
      );
    }
  } catch (error) {
    db.close();
    if (error instanceof LocalFileError) throw error;
    const { code, message } = error as { code?: string; message: string };
    if (code === 'ERR_SQLITE_ERROR' && /not a database|malformed/.test(message)) throw damaged(file, message);
    throw error;
  }
  return db;
}

function damaged(file: string, why: string): LocalFileError {
  return new LocalFileError(`The ledger ${file} cannot be read as einvoice's ledger: ${why}.`, {
    file,
    problem: /not an einvoice ledger|not a SQLite file/.test(why) ? 'foreign' : 'damaged',
    advice: 'einvoice leaves it as it is: move it away (with any -wal and -shm file beside it).',
    remedies,
  });
}

/** Refuses a file that holds something other than a SQLite database, leaving it as it was. */
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
      throw damaged(file, 'it is not a SQLite file');
    }
  } finally {
    await handle.close();
  }
}

/** The file and its folder, the user's alone; SQLite gives its -wal and -shm files the mode of the file. */
async function createPrivateFile(file: string): Promise<void> {
  await makePrivateFolder(dirname(file));
  const handle = await open(file, 'a', 0o600);
  try {
    const info = await handle.stat();
    if ((info.mode & 0o077) !== 0) await chmod(file, 0o600);
  } finally {
    await handle.close();
  }
}

/** Runs `change` again while another process holds the file: a change of journal mode does not wait by itself. */
async function whileBusy(change: () => void): Promise<void> {
  for (const started = Date.now(); ;) {
    try {
      return change();
    } catch (error) {
      if (!/database is locked/.test((error as Error).message) || Date.now() - started > ledgerBusyTimeoutMs) {
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}
