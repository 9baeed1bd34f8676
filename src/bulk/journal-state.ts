import { createReadStream } from 'node:fs';
import { UsageError } from '../errors.js';
import type { InvoiceKind } from '../schemas/invoice.js';
import { journalVersion, type JournalEntry } from './journal.js';
import { ndjsonRecords } from './records.js';

// Reads a journal back into what each record went through. The last entry of a record decides its state; a last
// line without its newline was torn by a crash and is ignored (it guarded nothing: the step after it never ran).

/** Where a record stands according to the journal. */
export type JournaledState = 'planned' | 'sent' | 'created' | 'failed' | 'uncertain';

/** One record of earlier runs. */
export interface JournaledRecord {
  key: string;
  state: JournaledState;
  record?: number;
  businessReference?: string;
  /**
   * The body it was sent with, kept only while its outcome is unknown (a rerun sends that very body again); a record
   * created or failed is planned afresh, so a resume of a large run holds no body for it.
   */
  body?: Record<string, unknown>;
  invoiceNumber?: string;
  alreadyExisted?: boolean;
  error?: string;
}

/** What the earlier runs of a journal left. */
export interface JournalState {
  /** The instant the first run resolved relative dates to; every rerun resolves them the same way. */
  resolveDatesAt?: Date;
  kind?: InvoiceKind;
  shard?: string;
  /** The environment and service the journal belongs to. */
  target?: { environment: string; service: string };
  records: Map<string, JournaledRecord>;
  /** Lines that could not be read (other than a torn last line). */
  damagedLines: number;
}

/** Reads the journal at `path`; undefined when there is none. */
export async function readJournal(path: string): Promise<JournalState | undefined> {
  const state: JournalState = { records: new Map(), damagedLines: 0 };
  try {
    const lines = ndjsonRecords(createReadStream(path, { highWaterMark: 1 << 16 }), { completeLinesOnly: true });
    for await (const batch of lines) for (const line of batch) apply(state, line.text);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (error instanceof UsageError) throw error;
    throw new UsageError(`Cannot read the journal ${path}: ${(error as Error).message}.`);
  }
  return state;
}

function apply(state: JournalState, line: string): void {
  let entry: JournalEntry;
  try {
    entry = JSON.parse(line) as JournalEntry;
  } catch {
    state.damagedLines += 1;
    return;
  }
  if (entry.type === 'run') {
    if (entry.version !== journalVersion) {
      throw new UsageError(`The journal was written by another version of einvoice (format ${entry.version}).`, {
        hint: 'Finish the batch with that version, or start over with a new --journal.\nsee: einvoice help journal',
      });
    }
    // The first run fixes the batch's dates, kind and shard.
    if (!state.resolveDatesAt) {
      state.resolveDatesAt = new Date(entry.resolveDatesAt);
      state.kind = entry.kind;
      state.shard = entry.shard;
    }
    state.target ??= { environment: entry.environment, service: entry.service };
    return;
  }
  if (typeof entry.key !== 'string') {
    state.damagedLines += 1;
    return;
  }
  let record = state.records.get(entry.key);
  if (!record) {
    record = { key: entry.key, state: 'planned' };
    state.records.set(entry.key, record);
  }
  switch (entry.type) {
    case 'planned':
      record.record = entry.record;
      record.businessReference = entry.businessReference;
      if (record.state !== 'created') record.body = entry.body as Record<string, unknown>;
      break;
    case 'sent':
      record.state = 'sent';
      record.error = undefined;
      break;
    case 'created':
      record.state = 'created';
      record.invoiceNumber = entry.invoiceNumber;
      record.alreadyExisted = entry.alreadyExisted;
      record.body = undefined;
      break;
    case 'failed':
      record.state = 'failed';
      record.error = entry.error;
      record.body = undefined;
      break;
    case 'uncertain':
      record.state = 'uncertain';
      record.error = entry.error;
      break;
    default:
      state.damagedLines += 1;
  }
}
