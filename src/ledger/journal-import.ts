import { hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { JournalEntry } from '../bulk/index.js';
import type { LedgerEntry, LedgerSource } from './entries.js';
import { journalRecordKey, ledgerEntryOf } from './sent-records.js';

// A bulk run's journal read as ledger entries: each record the journal says was sent, with its last known answer.
// A journal's id is a hash of its first line (the first run's entry: its instant, input and target), so a record is
// keyed the same on every machine the journal is copied to, and importing it again changes nothing.

type RunEntry = Extract<JournalEntry, { type: 'run' }>;

/** What a journal's first line says: its id, and the run that began it. */
export interface JournalHeader {
  id: string;
  run: RunEntry;
}

/** The header of the journal at `path`; undefined when its first line is not a run's entry. */
export async function journalHeader(path: string): Promise<JournalHeader | undefined> {
  for await (const { text } of lines(path)) {
    const entry = parsed(text);
    if (entry?.type !== 'run') return undefined;
    return { id: journalIdOf(text), run: entry };
  }
  return undefined;
}

/** The id of a journal whose first line is `firstLine`. */
export function journalIdOf(firstLine: string): string {
  return hash('sha256', firstLine, 'hex').slice(0, 12);
}

/** What each record went through, as the journal's last entry of it says. */
interface Fate {
  state: 'planned' | 'sent' | 'created' | 'failed' | 'uncertain';
  plannedLine: number;
  sentAt?: string;
  invoiceNumber?: string;
  alreadyExisted?: boolean;
  error?: string;
  status?: number;
}

export interface ImportOptions {
  journal: string;
  header: JournalHeader;
  currency?: string;
  via: LedgerSource['via'];
  /** How many entries each batch holds. */
  batchSize?: number;
}

/** The error a journal writes for an uncertain refund the merchant said was not made. */
const notDoneByMerchant = 'not done, as the merchant said';

/**
 * The ledger's entries of the journal, in batches: read twice, once for each record's fate and once for the bodies
 * of those that were sent, so a journal of a million records never holds its bodies in memory.
 */
export async function* journalLedgerEntries(path: string, options: ImportOptions): AsyncGenerator<LedgerEntry[]> {
  const fates = new Map<string, Fate>();
  const runAt = options.header.run.at;
  for await (const { text, line } of lines(path)) {
    const entry = parsed(text);
    if (!entry || entry.type === 'run' || typeof entry.key !== 'string') continue;
    let fate = fates.get(entry.key);
    if (entry.type === 'planned') {
      if (!fate) fates.set(entry.key, (fate = { state: 'planned', plannedLine: line }));
      fate.plannedLine = line;
      continue;
    }
    if (!fate) continue;
    if (entry.type === 'sent') {
      fate.state = 'sent';
      fate.sentAt = entry.at;
    } else if (entry.type === 'created') {
      Object.assign(fate, {
        state: 'created',
        invoiceNumber: entry.invoiceNumber,
        alreadyExisted: entry.alreadyExisted,
      });
    } else if (entry.type === 'failed' || entry.type === 'uncertain') {
      Object.assign(fate, {
        state: entry.type,
        error: entry.error,
        status: entry.type === 'failed' ? entry.status : undefined,
      });
    }
  }
  const byLine = new Map<number, [string, Fate]>();
  for (const [key, fate] of fates) if (wasSent(fate)) byLine.set(fate.plannedLine, [key, fate]);
  fates.clear();
  let batch: LedgerEntry[] = [];
  for await (const { text, line } of lines(path)) {
    const found = byLine.get(line);
    if (!found) continue;
    const [key, fate] = found;
    const planned = JSON.parse(text) as Extract<JournalEntry, { type: 'planned' }>;
    batch.push(entryOf(key, fate, planned, { ...options, runAt }));
    if (batch.length >= (options.batchSize ?? 500)) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** Whether the journal says the record's request left: its answer, or that it may have. */
function wasSent(fate: Fate): boolean {
  if (fate.state === 'planned') return false;
  // A failure the service never answered left nothing behind, unless the merchant settled an uncertain refund.
  if (fate.state === 'failed') return fate.status !== undefined || fate.error === notDoneByMerchant;
  return true;
}

function entryOf(
  key: string,
  fate: Fate,
  planned: Extract<JournalEntry, { type: 'planned' }>,
  options: ImportOptions & { runAt: string },
): LedgerEntry {
  const { header } = options;
  const source: LedgerSource = {
    via: options.via,
    file: header.run.input,
    line: planned.line ?? planned.record,
    journal: options.journal,
    run: header.id,
  };
  const settledNo = fate.state === 'failed' && fate.error === notDoneByMerchant;
  return ledgerEntryOf(header.run.kind, {
    common: {
      key: journalRecordKey(header.id, key),
      sentAt: fate.sentAt ?? options.runAt,
      ...(options.currency ? { currency: options.currency } : {}),
      source,
      service: header.run.service,
    },
    recordKey: key,
    body: planned.body as Record<string, unknown>,
    outcome:
      fate.state === 'created'
        ? 'made'
        : fate.state === 'sent' || fate.state === 'uncertain'
          ? 'uncertain'
          : settledNo
            ? 'not-made'
            : 'refused',
    error: fate.state === 'sent' ? 'sent; the run ended before its answer' : fate.error,
    invoiceNumber: fate.invoiceNumber,
    alreadyExisted: fate.alreadyExisted,
  });
}

function parsed(text: string): JournalEntry | undefined {
  try {
    const entry = JSON.parse(text) as JournalEntry;
    return typeof entry === 'object' && entry !== null ? entry : undefined;
  } catch {
    return undefined;
  }
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
