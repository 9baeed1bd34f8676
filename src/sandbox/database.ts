import { openLocalDatabase, type LocalDatabase } from '../local-database.js';
import { newStateId } from './state.js';

// The sandbox's database: its schema and version. Opening it, and refusing a file that cannot be used, is
// src/local-database.ts's, as for every SQLite file einvoice keeps.

/** The version of the schema below, kept in the file's user_version: 2 named the state, 3 added its requests. */
export const schemaVersion = 3;

/** The file's application_id: "EISB", einvoice's sandbox. */
export const sandboxApplication = 0x45495342;

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

/** Version 3: every request the service received, with what it did (request-history.ts). */
const requestHistory = `
  CREATE TABLE IF NOT EXISTS requests (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    received_at TEXT NOT NULL,
    ended_at TEXT,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    body_sha256 TEXT,
    body_bytes INTEGER,
    fault TEXT,
    committed INTEGER,
    status INTEGER,
    ended TEXT NOT NULL,
    invoice_number TEXT
  );
`;

export type { LocalDatabase as Database, Row, SqlValue } from '../local-database.js';

/**
 * Opens the sandbox's database in `file`, or in memory. The schema is written by the first process to open a new
 * file; `initialize` then fills it, in the same transaction. A file that cannot be used (another program's, damaged,
 * a newer einvoice's, read-only, held too long) is refused with LocalFileError, and left as it was.
 */
export function openDatabase(file: string | undefined, initialize: (database: LocalDatabase) => void) {
  return openLocalDatabase(file, {
    description: "The sandbox's state file",
    application: sandboxApplication,
    version: schemaVersion,
    // A corrupted page is found before the first request, while reading the file whole costs little; a state of
    // tens of thousands of invoices is not read whole by every command (it would slow each one as it fills).
    verifyUpToBytes: 16 * 1024 * 1024,
    migrate(database, from) {
      if (from === 0) {
        database.exec(schema);
        database.exec(requestHistory);
        initialize(database);
        return;
      }
      // Version 1 named no state: the state a file holds is given its name, as a reset would give a new one.
      database.run("INSERT OR IGNORE INTO counters (name, value) VALUES ('stateId', ?)", newStateId());
      // An earlier file kept no history: it starts empty, as after a reset.
      database.exec(requestHistory);
    },
  });
}
