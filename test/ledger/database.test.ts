import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { LocalFileError } from '../../src/errors.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { alreadyHeld } from '../../src/ledger/recording.js';
import { ledgerApplication } from '../../src/ledger/schema.js';

// The ledger's file: one of an earlier einvoice brought up to date (merchants keep theirs), and a file that cannot be
// a ledger refused, naming it, before a byte of it changes.

const folder = () => mkdtempSync(join(tmpdir(), 'einvoice-ledger-file-'));
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const version1 = readFileSync(new URL('../fixtures/ledger-v1.sql', import.meta.url), 'utf8');

/** A ledger as einvoice wrote it before one entry per invoice: a row per request. */
function version1Ledger(file: string): void {
  const db = new DatabaseSync(file);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(version1);
  const invoice = db.prepare(
    `INSERT INTO invoices (entry_key, kind, status, invoice_number, business_reference, amount_minor, sending_date,
       sent_at, error, decided, via, source_file, source_line, journal, run, service, content_key, body)
     VALUES (?, 'single', ?, ?, ?, 9950, '2026-11-01', ?, ?, ?, ?, ?, ?, ?, ?, 'https://service.example/', NULL, ?)`,
  );
  const body = (reference: string | null) =>
    JSON.stringify({ amount: 99.5, sendingDate: '2026-11-01', ...(reference ? { businessReference: reference } : {}) });
  const when = (hour: number) => `2026-11-01T${String(hour).padStart(2, '0')}:00:00.000Z`;
  invoice.run(
    'journal:a:1',
    'created',
    '1000001',
    'REF-1',
    when(9),
    null,
    null,
    'bulk',
    'invoices.csv',
    2,
    'j1',
    'a',
    body('REF-1'),
  );
  // The same sheet sent again from another journal: the service already held it.
  invoice.run(
    'journal:b:1',
    'created',
    '1000001',
    'REF-1',
    when(10),
    null,
    'the service already held it when it was sent again',
    'import',
    'invoices.xlsx',
    2,
    'j2',
    'b',
    body('REF-1'),
  );
  invoice.run(
    'one:x',
    'uncertain',
    null,
    null,
    when(11),
    'time-out',
    null,
    'flags',
    null,
    null,
    null,
    null,
    body(null),
  );
  const refund = db.prepare(
    `INSERT INTO refunds (entry_key, invoice_number, status, amount_minor, reason, order_reference, sent_at, error,
       decided, via, source_file, source_line, journal, run, service, body)
     VALUES (?, ?, ?, 9950, 'Returned', '3712350', ?, NULL, ?, 'bulk', 'refunds.csv', 2, 'j3', 'r', 'https://service.example/', ?)`,
  );
  refund.run('journal:r:1', '1000001', 'refunded', when(12), null, '{"amount":"99.50"}');
  refund.run(
    'journal:r:2',
    '1000002',
    'not-refunded',
    when(13),
    'not refunded, as the merchant said',
    '{"amount":"10"}',
  );
  db.exec(`UPDATE invoices SET refund_status = 'refunded' WHERE invoice_number = '1000001'`);
  db.close();
}

describe('a ledger of an earlier einvoice (version 1)', () => {
  it('is brought up to date: the requests of one invoice become one entry and its history', async () => {
    const file = join(folder(), 'local.sqlite');
    version1Ledger(file);
    const ledger = (await Ledger.open(file, { create: false })) as Ledger;
    try {
      const invoices = [...ledger.list({})];
      expect(invoices.map((invoice) => [invoice.invoiceNumber, invoice.status])).toEqual([
        [null, 'uncertain'],
        ['1000001', 'refunded'],
      ]);
      const [found] = ledger.find('REF-1');
      expect(found?.history.map((step) => [step.key, step.source])).toEqual([
        ['journal:a:1', 'invoices.csv:2'],
        ['journal:b:1', 'invoices.xlsx:2'],
      ]);
      expect(ledger.refundsOf('1000002')).toMatchObject([{ status: 'not-refunded' }]);
    } finally {
      ledger.close();
    }
    const db = new DatabaseSync(file, { readOnly: true });
    expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: 3 });
    expect(db.prepare('PRAGMA application_id').get()).toEqual({ application_id: ledgerApplication });
    db.close();
  });
});

describe('a ledger of version 2', () => {
  it('gains the sizes of the journals it holds whole; an invoice met again is the request that created it', async () => {
    const file = join(folder(), 'local.sqlite');
    version1Ledger(file);
    (await Ledger.open(file, { create: false }))?.close();
    // Version 2 as it was: the same tables, without the journals', and an invoice met again decided by that meeting.
    const db = new DatabaseSync(file);
    db.exec('DROP TABLE journals; PRAGMA user_version = 2;');
    db.prepare("UPDATE invoices SET decided = ? WHERE invoice_number = '1000001'").run(alreadyHeld);
    db.close();
    const ledger = (await Ledger.open(file, { create: false })) as Ledger;
    try {
      expect([...ledger.list({})]).toHaveLength(2);
      const [found] = ledger.find('1000001');
      expect(found?.invoice.decided).toBeNull();
      expect(found?.history.map((step) => step.decided)).toEqual([null, alreadyHeld]);
      expect(ledger.journalRecordedAt('a')).toBeUndefined();
      ledger.journalRecorded('a', 1234);
      expect(ledger.journalRecordedAt('a')).toBe(1234);
    } finally {
      ledger.close();
    }
  });
});

/** Opens `file` as a ledger and hands back its refusal. */
async function refusal(file: string, busyTimeoutMs?: number): Promise<LocalFileError> {
  const error = await Ledger.open(file, { create: true, busyTimeoutMs }).then(
    (ledger) => {
      ledger?.close();
      throw new Error('opened');
    },
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(LocalFileError);
  return error as LocalFileError;
}

describe('a file that cannot be a ledger (exit 10), left as it was', () => {
  it('refuses a folder where the file should be', async () => {
    const file = join(folder(), 'local.sqlite');
    mkdirSync(file);
    const error = await refusal(file);
    expect(error.message).toBe(`The ledger ${file} is a folder, not a file.`);
    expect(error.hint).toContain('EINVOICE_LEDGER_DIR=FOLDER');
  });

  it("refuses another program's SQLite database without starting a write-ahead log in it", async () => {
    const file = join(folder(), 'local.sqlite');
    const other = new DatabaseSync(file);
    other.exec('CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES (1)');
    other.close();
    const before = sha256(file);
    const error = await refusal(file);
    expect(error.problem).toBe('foreign');
    expect(error.message).toContain(`The ledger ${file} is not a database einvoice made`);
    expect(sha256(file)).toBe(before);
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it('refuses a file another process holds beyond the wait, naming it', async () => {
    const file = join(folder(), 'local.sqlite');
    (await Ledger.open(file, { create: true }))?.close();
    const holder = new DatabaseSync(file);
    holder.exec('PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE');
    try {
      const error = await refusal(file, 50);
      expect(error.problem).toBe('locked');
      expect(error.message).toBe(`The ledger ${file} is held by another process: einvoice waited 50 ms for it.`);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  });

  it('refuses an immutable file, which even root cannot write', async () => {
    const file = join(folder(), 'local.sqlite');
    (await Ledger.open(file, { create: true }))?.close();
    const before = sha256(file);
    execFileSync('chattr', ['+i', file]);
    try {
      const error = await refusal(file);
      expect(error.problem).toBe('read-only');
      expect(error.message).toContain(`The ledger ${file} cannot be written`);
      expect(sha256(file)).toBe(before);
    } finally {
      execFileSync('chattr', ['-i', file]);
    }
  });
});
