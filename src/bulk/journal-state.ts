import { createReadStream } from 'node:fs';
import { UsageError } from '../errors.js';
import type { RecordKindName } from './kind.js';
import { journalVersion, type JournalEntry } from './journal.js';
import { ndjsonRecords } from '../sheet/index.js';

// Reads a journal back into what each record went through. The last entry of a record decides its state; a last
// line without its newline was torn by a crash and is ignored (it guarded nothing: the step after it never ran).

/** Where a record stands according to the journal. */
export type JournaledState = 'planned' | 'sent' | 'created' | 'failed' | 'uncertain';

/** One record of earlier runs. */
export interface JournaledRecord {
  key: string;
  state: JournaledState;
  record?: number;
  /** Its line (NDJSON) or row (a sheet) in the file, as a run lists it. */
  line?: number;
  businessReference?: string;
  /**
   * The body it was sent with, read only for a record whose outcome is unknown (a rerun sends that very body again);
   * any other is planned afresh, so a resume of a large run holds no body for it.
   */
  body?: Record<string, unknown>;
  /** The line of its latest `planned` entry, where its body is. */
  plannedLine?: number;
  invoiceNumber?: string;
  error?: string;
  /** Its state is the merchant's word (`--mark-...`), not the service's answer. */
  marked?: boolean;
}

/** What the earlier runs of a journal left. */
export interface JournalState {
  /** The instant the first run resolved relative dates to; every rerun resolves them the same way. */
  resolveDatesAt?: Date;
  kind?: RecordKindName;
  shard?: string;
  /** The environment and service the journal belongs to. */
  target?: { environment: string; service: string };
  records: Map<string, JournaledRecord>;
  /** Lines that could not be read (other than a torn last line). */
  damagedLines: number;
  /** The latest run that has sent nothing yet: it fixes the batch only once it sends (see `apply`). */
  unconfirmedRun?: Extract<JournalEntry, { type: 'run' }>;
}

/**
 * Reads the journal at `path`; undefined when there is none. The bodies of the records whose outcome is unknown are
 * read, and with `failedBodies` those of the records that failed too (the merchant's word may name them).
 */
export async function readJournal(path: string, { failedBodies = false } = {}): Promise<JournalState | undefined> {
  const state: JournalState = { records: new Map(), damagedLines: 0 };
  try {
    for await (const batch of journalLines(path)) for (const line of batch) apply(state, line.text, line.line);
    await readBodiesSentBefore(path, state, failedBodies);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (error instanceof UsageError) throw error;
    throw new UsageError(`Cannot read the journal ${path}: ${(error as Error).message}.`);
  }
  return state;
}

/** The run that sent first fixes the batch. */
function confirmRun(state: JournalState, run: Extract<JournalEntry, { type: 'run' }>): void {
  state.resolveDatesAt = new Date(run.resolveDatesAt);
  state.kind = run.kind;
  state.shard = run.shard;
  state.target = { environment: run.environment, service: run.service };
  state.unconfirmedRun = undefined;
}

function journalLines(path: string, start = 0) {
  return ndjsonRecords(createReadStream(path, { start, highWaterMark: 1 << 16 }), { completeLinesOnly: true });
}

/** A record to send, as its `planned` entry holds it. */
export interface PlannedEntry {
  key: string;
  businessReference?: string;
  /** The body's JSON text, as journaled: sent as it is. */
  bodyJson: string;
}

/** The `planned` entries of the journal from byte `start` on (where a run's own entries begin), in order. */
export async function* plannedEntries(path: string, start: number): AsyncGenerator<PlannedEntry> {
  for await (const batch of journalLines(path, start)) {
    for (const { text } of batch) {
      // The whole plan is written before the first request: what the sending appends after it is not read back.
      if (text.startsWith('{"type":"sent"')) return;
      if (!text.startsWith('{"type":"planned"')) continue;
      // The body is the entry's last field (JournalWriter.appendPlanned), and a quote inside a text is escaped: the
      // fields before it are parsed alone, and the body is sent as the text it is.
      const bodyAt = text.indexOf(',"body":');
      const { key, businessReference } = JSON.parse(`${text.slice(0, bodyAt)}}`) as PlannedEntry;
      yield { key, businessReference, bodyJson: text.slice(bodyAt + ',"body":'.length, -1) };
    }
  }
}

/** Reads the body of each record that was sent with its outcome unknown (or failed), from its `planned` line. */
async function readBodiesSentBefore(path: string, state: JournalState, failed: boolean): Promise<void> {
  const byLine = new Map<number, JournaledRecord>();
  for (const record of state.records.values()) {
    const wanted = record.state === 'sent' || record.state === 'uncertain' || (failed && record.state === 'failed');
    if (wanted && record.plannedLine !== undefined) {
      byLine.set(record.plannedLine, record);
    }
  }
  if (byLine.size === 0) return;
  for await (const batch of journalLines(path)) {
    for (const { line, text } of batch) {
      const record = byLine.get(line);
      if (record) record.body = (JSON.parse(text) as { body: Record<string, unknown> }).body;
    }
  }
}

function apply(state: JournalState, line: string, lineNumber: number): void {
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
    // The first run that sends fixes the batch's dates, kind, shard and target. A run that sent nothing (refused,
    // declined, killed before its first request) left only its plan, and must not decide them for the next.
    if (!state.resolveDatesAt) state.unconfirmedRun = entry;
    return;
  }
  if (typeof entry.key !== 'string') {
    state.damagedLines += 1;
    return;
  }
  let record = state.records.get(entry.key);
  if (!record) {
    // The fields every record has sit in the object itself; the rarer ones (a body, an error) only on those that
    // have them, so a journal of a million records keeps a small object for each.
    record = {
      key: entry.key,
      state: 'planned',
      record: undefined,
      line: undefined,
      businessReference: undefined,
      plannedLine: undefined,
      invoiceNumber: undefined,
    };
    state.records.set(entry.key, record);
  }
  switch (entry.type) {
    case 'planned':
      record.record = entry.record;
      record.line = entry.line;
      record.businessReference = entry.businessReference;
      record.plannedLine = lineNumber;
      break;
    case 'sent':
      if (state.unconfirmedRun) confirmRun(state, state.unconfirmedRun);
      record.state = 'sent';
      if (record.error !== undefined) record.error = undefined;
      if (record.marked) record.marked = false;
      break;
    case 'created':
      record.state = 'created';
      record.invoiceNumber = entry.invoiceNumber;
      if (entry.marked || record.marked) record.marked = entry.marked === true;
      break;
    case 'failed':
      record.state = 'failed';
      record.error = entry.error;
      if (entry.marked || record.marked) record.marked = entry.marked === true;
      break;
    case 'uncertain':
      record.state = 'uncertain';
      record.error = entry.error;
      break;
    default:
      state.damagedLines += 1;
  }
}
