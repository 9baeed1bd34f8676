import type { LocalDatabase } from '../local-database.js';

// The ledger's tables. An invoice is one row however many requests, runs, journals and imports met it; a refund is
// one row per refund the merchant asked for (a record of a refund file, or one `einvoice refund`). Each request
// einvoice knows of is mapped to the row it belongs to, and what later requests found (another run, an import, the
// merchant's word) is the row's history.

/** The version of the schema below, kept in the file's user_version. */
export const ledgerSchemaVersion = 3;

/** The file's application_id: "EILG", einvoice's ledger. */
export const ledgerApplication = 0x45494c47;

/** What version 3 adds to version 2. */
export const journalsTable = 'CREATE TABLE journals (id TEXT PRIMARY KEY, size INTEGER NOT NULL) WITHOUT ROWID;';

/**
 * `scope` is the numbering an invoice number belongs to: the service, and for a sandbox the state that handed it
 * out (numbers start again after `sandbox reset`). `history` holds each request that met a row (keyed as its
 * journal keys it, or one of its own for a single command) with the latest step known of it: `at` is the instant of
 * that step (the attempt, or the merchant's word), which orders what is learnt; `marked` is 1 when its status is the
 * merchant's word. A row's status, error and decision are those of its deciding request (`answered_at`, `marked`).
 * `merged` keeps the id of a row that joined another once an answer named its invoice. `journals` holds, for a
 * journal (by the id of its first line), its size when a run that wrote it ended with every record in the ledger.
 */
export const ledgerSchema = `
  CREATE TABLE invoices (
    id INTEGER PRIMARY KEY,
    scope TEXT NOT NULL,
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
    answered_at TEXT NOT NULL,
    marked INTEGER NOT NULL DEFAULT 0,
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
  CREATE UNIQUE INDEX invoices_in_scope ON invoices (scope, invoice_number) WHERE invoice_number IS NOT NULL;
  CREATE INDEX invoices_newest ON invoices (sent_at, id);
  CREATE INDEX invoices_by_reference ON invoices (business_reference) WHERE business_reference IS NOT NULL;
  CREATE INDEX invoices_by_number ON invoices (invoice_number) WHERE invoice_number IS NOT NULL;
  CREATE INDEX invoices_by_run ON invoices (run, sent_at) WHERE run IS NOT NULL;
  CREATE INDEX invoices_by_content ON invoices (content_key) WHERE content_key IS NOT NULL;
  CREATE TABLE refunds (
    id INTEGER PRIMARY KEY,
    scope TEXT NOT NULL,
    invoice_number TEXT NOT NULL,
    status TEXT NOT NULL,
    amount_minor INTEGER,
    currency TEXT,
    reason TEXT,
    order_reference TEXT,
    sent_at TEXT NOT NULL,
    answered_at TEXT NOT NULL,
    marked INTEGER NOT NULL DEFAULT 0,
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
  CREATE INDEX refunds_of_invoice ON refunds (scope, invoice_number, sent_at);
  CREATE INDEX refunds_by_number ON refunds (invoice_number);
  CREATE INDEX refunds_newest ON refunds (sent_at);
  CREATE TABLE history (
    request_key TEXT PRIMARY KEY,
    type TEXT NOT NULL,
    entry INTEGER NOT NULL,
    sent_at TEXT NOT NULL,
    at TEXT NOT NULL,
    status TEXT NOT NULL,
    marked INTEGER NOT NULL DEFAULT 0,
    error TEXT,
    decided TEXT,
    via TEXT NOT NULL,
    source_file TEXT,
    source_line INTEGER,
    journal TEXT,
    run TEXT
  ) WITHOUT ROWID;
  CREATE INDEX history_of_entry ON history (type, entry, at);
  CREATE TABLE merged (id INTEGER PRIMARY KEY, into_id INTEGER NOT NULL);
  CREATE TABLE scopes (service TEXT PRIMARY KEY, scope TEXT NOT NULL, seen_at TEXT NOT NULL) WITHOUT ROWID;
  ${journalsTable}
`;

/** Whether a file einvoice wrote before its ledgers were marked (version 1) is a ledger. */
export function isUnmarkedLedger(database: LocalDatabase, version: number): boolean {
  if (version !== 1) return false;
  const tables = database.all(
    "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name IN ('invoices', 'refunds') ORDER BY name",
  );
  return tables.length === 2 && tables.every((table) => /entry_key TEXT NOT NULL UNIQUE/.test(String(table.sql)));
}

/**
 * Takes a version 1 ledger's tables aside (`v1_invoices`, `v1_refunds`) and writes the schema; the caller brings
 * their rows in, then drops them (`dropVersion1`).
 */
export function setVersion1Aside(database: LocalDatabase): void {
  for (const row of database.all("SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL")) {
    database.exec(`DROP INDEX "${String(row.name)}"`);
  }
  database.exec('ALTER TABLE invoices RENAME TO v1_invoices; ALTER TABLE refunds RENAME TO v1_refunds;');
  database.exec(ledgerSchema);
}

/** Drops the version 1 tables once their rows are in. */
export function dropVersion1(database: LocalDatabase): void {
  database.exec('DROP TABLE v1_invoices; DROP TABLE v1_refunds;');
}
