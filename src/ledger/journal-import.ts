import { hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { JournalEntry } from '../bulk/index.js';
import type { FieldIssue } from '../errors.js';
import type { LocalDatabase } from '../local-database.js';
import { checkJournalLine, type CheckedJournalEntry } from '../schemas/journal-entry.js';
import type { LedgerEntry, LedgerSource } from './entries.js';
import { Recording } from './recording.js';
import { journalRecordKey, ledgerEntryOf } from './sent-records.js';

// A bulk run's journal read as the ledger's requests, checked whole first as input from outside (a CI artifact):
// every line's problems, named by its line, before anything is written. What each record went through is kept in a
// temporary table of the ledger's connection (on disk, not in memory: a journal may hold a million records), then the
// journal is read again for the bodies of those that were sent. A journal's id is a hash of its first line, so a
// record is keyed the same on every machine, and importing it again changes nothing.

type RunEntry = Extract<JournalEntry, { type: 'run' }>;

/** What a journal's first line says: its id, and the run that began it. */
export interface JournalHeader {
  id: string;
  run: RunEntry;
}

/** A problem of a journal, at its line. */
export interface JournalProblem extends FieldIssue {
  line: number;
}

/** The header of the journal at `path`; undefined when its first line is not a run's entry. */
export async function journalHeader(path: string): Promise<JournalHeader | undefined> {
  for await (const { text } of lines(path)) {
    const checked = checkJournalLine(text);
    if (!('entry' in checked) || checked.entry.type !== 'run') return undefined;
    return { id: journalIdOf(text), run: checked.entry as RunEntry };
  }
  return undefined;
}

/** The id of a journal whose first line is `firstLine`. */
export function journalIdOf(firstLine: string): string {
  return hash('sha256', firstLine, 'hex').slice(0, 12);
}

/** The error a journal of an earlier einvoice wrote for a record the merchant said was not done. */
const notDoneByMerchant = 'not done, as the merchant said';

const fatesTable = `
  CREATE TEMP TABLE IF NOT EXISTS fates (
    journal INTEGER NOT NULL,
    key TEXT NOT NULL,
    planned_line INTEGER NOT NULL,
    state TEXT NOT NULL,
    sent_at TEXT,
    at TEXT,
    invoice_number TEXT,
    already_existed INTEGER,
    marked INTEGER,
    error TEXT,
    status INTEGER,
    sandbox_state TEXT,
    PRIMARY KEY (journal, key)
  ) WITHOUT ROWID`;

/** How many problems of one journal are kept: enough to see what is wrong with it. */
const problemsKept = 50;

/**
 * Reads the journal at `path` whole, as the `journal`th of an import: its problems (each named by its line, at most
 * 50, and how many there were), and what each record went through, in the connection's temporary table.
 */
export async function checkJournal(
  db: LocalDatabase,
  path: string,
  journal: number,
): Promise<{ problems: JournalProblem[]; count: number }> {
  db.exec('PRAGMA temp_store = FILE');
  db.exec(fatesTable);
  const problems: JournalProblem[] = [];
  let count = 0;
  db.exec('BEGIN');
  try {
    db.run('DELETE FROM fates WHERE journal = ?', journal);
    for await (const { text, line } of lines(path)) {
      const checked = checkJournalLine(text);
      if ('issues' in checked) {
        count += checked.issues.length;
        for (const issue of checked.issues) if (problems.length < problemsKept) problems.push({ ...issue, line });
        continue;
      }
      // The first line is the journal's own: a journal that begins otherwise is refused before this is read.
      if (line === 1 && checked.entry.type !== 'run') {
        count += 1;
        problems.push({ path: 'type', message: "is not the run's entry a journal begins with", line });
      }
      keepFate(db, journal, checked.entry, line);
    }
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
  return { problems, count };
}

/** What an entry says of its record, kept in the temporary table. */
function keepFate(db: LocalDatabase, journal: number, entry: CheckedJournalEntry, line: number): void {
  switch (entry.type) {
    case 'run':
      return;
    case 'planned':
      db.run(
        `INSERT INTO fates (journal, key, planned_line, state) VALUES (?, ?, ?, 'planned')
         ON CONFLICT (journal, key) DO UPDATE SET planned_line = excluded.planned_line`,
        journal,
        entry.key,
        line,
      );
      return;
    case 'sent':
      db.run(
        `UPDATE fates SET state = 'sent', sent_at = ?, at = ?, error = NULL, marked = 0 WHERE journal = ? AND key = ?`,
        entry.at,
        entry.at,
        journal,
        entry.key,
      );
      return;
    case 'created':
      db.run(
        `UPDATE fates SET state = 'created', invoice_number = ?, already_existed = ?, marked = ?,
           at = coalesce(?, sent_at), sandbox_state = ?, error = NULL
         WHERE journal = ? AND key = ?`,
        entry.invoiceNumber ?? null,
        entry.alreadyExisted ? 1 : 0,
        entry.marked ? 1 : 0,
        entry.at ?? null,
        entry.sandboxState ?? null,
        journal,
        entry.key,
      );
      return;
    case 'failed':
      db.run(
        `UPDATE fates SET state = 'failed', error = ?, status = ?, marked = ?, at = coalesce(?, sent_at)
         WHERE journal = ? AND key = ?`,
        entry.error,
        entry.status ?? null,
        entry.marked || entry.error === notDoneByMerchant ? 1 : 0,
        entry.at ?? null,
        journal,
        entry.key,
      );
      return;
    case 'uncertain':
      db.run(
        `UPDATE fates SET state = 'uncertain', error = ?, at = sent_at WHERE journal = ? AND key = ?`,
        entry.error,
        journal,
        entry.key,
      );
  }
}

/** How a checked journal is recorded. */
export interface ImportOptions {
  /** The journal as the ledger names it (its path). */
  journal: string;
  header: JournalHeader;
  currency?: string;
  via: LedgerSource['via'];
  /** How many requests each transaction records. */
  batchSize?: number;
}

/** A record's fate, as the temporary table holds it. */
interface Fate {
  key: string;
  planned_line: number;
  state: string;
  sent_at: string | null;
  at: string | null;
  invoice_number: string | null;
  already_existed: number | null;
  marked: number | null;
  error: string | null;
  status: number | null;
  sandbox_state: string | null;
}

/**
 * Records the requests of the `journal`th journal, checked by `checkJournal()`: each record that was sent, with its
 * last step, in transactions of a batch each. Returns how many it recorded.
 */
export async function importJournal(
  db: LocalDatabase,
  path: string,
  journal: number,
  options: ImportOptions,
): Promise<number> {
  db.exec('CREATE INDEX IF NOT EXISTS temp.fates_by_line ON fates (journal, planned_line)');
  const batchSize = options.batchSize ?? 1000;
  const page = (after: number) =>
    db.all(
      `SELECT * FROM fates WHERE journal = ? AND planned_line > ? AND sent_at IS NOT NULL
         AND (state <> 'failed' OR status IS NOT NULL OR marked = 1)
       ORDER BY planned_line LIMIT ?`,
      journal,
      after,
      batchSize,
    ) as unknown as Fate[];
  let fates = page(0);
  let next = 0;
  let batch: LedgerEntry[] = [];
  let recorded = 0;
  const flush = () => {
    db.write(() => {
      const recording = new Recording(db);
      for (const entry of batch) recording.record(entry);
    });
    recorded += batch.length;
    batch = [];
  };
  for await (const { text, line } of lines(path)) {
    const fate = fates[next];
    if (fate === undefined) break;
    if (line !== fate.planned_line) continue;
    batch.push(entryOf(fate, plannedOf(text), options));
    next += 1;
    if (next === fates.length) {
      flush();
      fates = page(line);
      next = 0;
    }
  }
  if (batch.length > 0) flush();
  db.run('DELETE FROM fates WHERE journal = ?', journal);
  return recorded;
}

/** A `planned` line checked before: its fields, and its body as the text the run sent (the entry's last field). */
interface Planned {
  record: number;
  line?: number;
  body: Record<string, unknown>;
  bodyJson: string;
}

function plannedOf(text: string): Planned {
  // A run writes the body last (JournalWriter.appendPlanned): its text is taken as it is, parsed once.
  const bodyAt = text.indexOf(',"body":');
  try {
    const fields = JSON.parse(`${text.slice(0, bodyAt)}}`) as { record: number; line?: number };
    const bodyJson = text.slice(bodyAt + ',"body":'.length, -1);
    return {
      record: fields.record,
      line: fields.line,
      body: JSON.parse(bodyJson) as Record<string, unknown>,
      bodyJson,
    };
  } catch {
    // A line written otherwise (its fields in another order): parsed whole.
    const planned = JSON.parse(text) as Omit<Planned, 'bodyJson'>;
    return { ...planned, bodyJson: JSON.stringify(planned.body) };
  }
}

function entryOf(fate: Fate, planned: Planned, options: ImportOptions): LedgerEntry {
  const { header } = options;
  const source: LedgerSource = {
    via: options.via,
    file: header.run.input,
    line: planned.line ?? planned.record,
    journal: options.journal,
    run: header.id,
  };
  const marked = fate.marked === 1;
  return ledgerEntryOf(header.run.kind, {
    common: {
      key: journalRecordKey(header.id, fate.key),
      sentAt: fate.sent_at ?? header.run.at,
      ...(options.currency ? { currency: options.currency } : {}),
      source,
      service: header.run.service,
    },
    recordKey: fate.key,
    body: planned.body,
    bodyJson: planned.bodyJson,
    outcome:
      fate.state === 'created'
        ? 'made'
        : fate.state === 'sent' || fate.state === 'uncertain'
          ? 'uncertain'
          : marked
            ? 'not-made'
            : 'refused',
    ...(marked ? { marked } : {}),
    ...(fate.at !== null ? { at: fate.at } : {}),
    ...(fate.sandbox_state !== null ? { sandboxState: fate.sandbox_state } : {}),
    ...(fate.state === 'sent'
      ? { error: 'sent; the run ended before its answer' }
      : fate.error !== null
        ? { error: fate.error }
        : {}),
    ...(fate.invoice_number !== null ? { invoiceNumber: fate.invoice_number } : {}),
    ...(fate.already_existed === 1 ? { alreadyExisted: true } : {}),
  });
}

/** The complete lines of a file, numbered from 1 (a torn last line, without its newline, is left out). */
async function* lines(path: string): AsyncGenerator<{ text: string; line: number }> {
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 16 });
  let line = 0;
  let pending: string | undefined;
  try {
    for await (const text of createInterface({ input: stream, crlfDelay: Infinity })) {
      if (pending !== undefined) yield { text: pending, line };
      line += 1;
      pending = text;
    }
    // The last line counts only if the file ends with its newline.
    if (pending !== undefined && (await endsWithNewline(path))) yield { text: pending, line };
  } finally {
    stream.destroy();
  }
}

async function endsWithNewline(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size === 0) return false;
    const { buffer } = await handle.read(Buffer.alloc(1), 0, 1, size - 1);
    return buffer[0] === 10;
  } finally {
    await handle.close();
  }
}
