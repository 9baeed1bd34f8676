import { stat } from 'node:fs/promises';
import { LocalFileError } from '../errors.js';
import { openLocalDatabase, type LocalDatabase } from '../local-database.js';
import { alreadyHeld, Recording } from './recording.js';
import type { InvoiceEntry, LedgerSource, RefundEntry } from './entries.js';
import {
  dropVersion1,
  isUnmarkedLedger,
  journalsTable,
  ledgerApplication,
  ledgerSchema,
  ledgerSchemaVersion,
  setVersion1Aside,
} from './schema.js';

// Opens a ledger's file through the one opener of einvoice's SQLite files (private, WAL, refused untouched when it
// cannot be used), and brings a ledger of an earlier einvoice up to date in the opening's transaction.

/** How long a write waits for another process's transaction before it gives up (a send never waits on it). */
export const ledgerBusyTimeoutMs = 10_000;

/** What a refusal of a ledger adds to the advice: how to start a new one, and bring the runs back in. */
const remedies = [
  'A new ledger starts where this one was once it is moved away; einvoice invoices import JOURNAL brings bulk runs back in.',
  'EINVOICE_LEDGER_DIR=FOLDER keeps the ledgers in another folder.',
];

/** Opens (and with `create`, makes) the ledger at `file`; undefined when there is none and `create` is false. */
export async function openLedgerDatabase(
  file: string,
  options: { create: boolean; busyTimeoutMs?: number },
): Promise<LocalDatabase | undefined> {
  const exists = await stat(file).then(
    () => true,
    () => false,
  );
  if (!exists && !options.create) return undefined;
  try {
    return await openLocalDatabase(file, {
      description: 'The ledger',
      application: ledgerApplication,
      version: ledgerSchemaVersion,
      busyTimeoutMs: options.busyTimeoutMs ?? ledgerBusyTimeoutMs,
      recognizeUnmarked: isUnmarkedLedger,
      migrate(database, from) {
        if (from === 0) database.exec(ledgerSchema);
        else if (from === 1) fromVersion1(database);
        else {
          database.exec(journalsTable);
          new Recording(database).settleInvoicesMetAgain();
        }
      },
    });
  } catch (error) {
    throw error instanceof LocalFileError ? error.withRemedies(remedies) : error;
  }
}

/**
 * A ledger of version 1 (a row per request) brought to version 2: each of its rows is recorded again as the step of
 * a request, so the requests of one invoice become one entry and its history.
 */
function fromVersion1(database: LocalDatabase): void {
  setVersion1Aside(database);
  const recording = new Recording(database);
  for (const row of database.each('SELECT * FROM v1_invoices ORDER BY sent_at, id')) {
    const decided = textOf(row.decided);
    recording.record({
      type: 'invoice',
      ...common(row),
      kind: row.kind === 'recurring' ? 'recurring' : 'single',
      status: row.status as InvoiceEntry['status'],
      ...(row.invoice_number !== null ? { invoiceNumber: String(row.invoice_number) } : {}),
      ...(decided === alreadyHeld ? { alreadyExisted: true } : {}),
      ...(row.content_key !== null ? { contentKey: String(row.content_key) } : {}),
    });
  }
  for (const row of database.each('SELECT * FROM v1_refunds ORDER BY sent_at, id')) {
    const status = row.status as RefundEntry['status'];
    recording.record({
      type: 'refund',
      ...common(row),
      invoiceNumber: String(row.invoice_number),
      status,
      // Version 1 kept the merchant's word on a refund as its decision.
      ...(status === 'not-refunded' || /as the merchant said/.test(String(row.decided)) ? { marked: true } : {}),
    });
  }
  dropVersion1(database);
}

/** What a version 1 row of either table says of its request besides its answer. */
function common(row: Record<string, unknown>) {
  const source: LedgerSource = {
    via: row.via as LedgerSource['via'],
    ...(row.source_file !== null ? { file: String(row.source_file) } : {}),
    ...(row.source_line !== null ? { line: Number(row.source_line) } : {}),
    ...(row.journal !== null ? { journal: String(row.journal) } : {}),
    ...(row.run !== null ? { run: String(row.run) } : {}),
  };
  return {
    key: String(row.entry_key),
    sentAt: String(row.sent_at),
    bodyJson: String(row.body),
    ...(row.currency !== null ? { currency: String(row.currency) } : {}),
    ...(row.error !== null ? { error: String(row.error) } : {}),
    ...(row.decided !== null ? { decided: String(row.decided) } : {}),
    ...(row.service !== null ? { service: String(row.service) } : {}),
    source,
  };
}

function textOf(value: unknown): string | undefined {
  return value === null || value === undefined ? undefined : String(value);
}
