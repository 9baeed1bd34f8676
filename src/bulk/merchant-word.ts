import { UsageError } from '../errors.js';
import { JournalWriter } from './journal.js';
import type { JournalState, JournaledRecord } from './journal-state.js';
import type { JournalPlace } from './journal-target.js';
import type { CheckingKind } from './kind.js';
import { unwritable } from './unwritable.js';

// The merchant's word on records an earlier run sent (`--mark-refunded INVOICE`, `--mark-created ROW` and their
// "not" forms): journaled before the run plans, so a rerun never sends what the merchant said was done, and sends
// again what the merchant said was not.

/** The merchant's word, by the name the kind gives each record (`markName`). */
export interface MerchantWord {
  done: readonly string[];
  notDone: readonly string[];
}

/** The merchant's word on one record an earlier run sent, as this run journaled it. */
export interface RecordMark {
  /** The record's key in the journal. */
  key: string;
  /** The name the word gave it: a refund's invoice number, an invoice's row. */
  name: string;
  done: boolean;
  /** When the word was journaled. */
  at: string;
}

/** What the merchant's word settled: how many records as done, how many as not done, and the names it did not. */
export interface Settled {
  done: number;
  notDone: number;
  unknown: readonly string[];
  /** The records it changed. */
  marks: readonly RecordMark[];
}

/**
 * Settles records an earlier run sent, as the merchant says: one whose outcome is unknown, one that failed (a resend
 * the merchant allowed that the service refused), one the merchant's earlier word settled (a later word replaces it).
 * A word against the service's own answer that a record was done stops the run; a word already in force changes
 * nothing. What it changes is journaled at once.
 */
export async function settle(
  earlier: JournalState | undefined,
  word: MerchantWord,
  kind: CheckingKind,
  journal: JournalPlace | undefined,
): Promise<Settled> {
  const said = new Map<string, boolean>([
    ...word.done.map((name) => [name, true] as const),
    ...word.notDone.map((name) => [name, false] as const),
  ]);
  const both = word.done.filter((name) => word.notDone.includes(name));
  if (both.length > 0) {
    throw new UsageError(`${both.join(', ')}: marked both done and not done; nothing was sent.`);
  }
  const at = new Date().toISOString();
  const found = new Set<string>();
  const contradicted: string[] = [];
  const changed: Array<{ record: JournaledRecord; mark: RecordMark }> = [];
  for (const record of earlier?.records.values() ?? []) {
    // A record an earlier run only planned was never sent: there is nothing to settle.
    if (record.state === 'planned') continue;
    const name = kind.markName(record);
    const done = name === undefined ? undefined : said.get(name);
    if (name === undefined || done === undefined) continue;
    found.add(name);
    if (record.state === 'created' && !record.marked) {
      if (!done) contradicted.push(name);
      continue;
    }
    // Already so: done, or failed (a rerun sends it).
    if (done ? record.state === 'created' : record.state === 'failed') continue;
    changed.push({ record, mark: { key: record.key, name, done, at } });
  }
  if (contradicted.length > 0) {
    throw new UsageError(
      `${contradicted.join(', ')}: the service answered that ${contradicted.length === 1 ? 'it was' : 'they were'} done, as the journal holds; nothing was sent.`,
      { hint: 'A record the service answered cannot be marked not done: look it up in the merchant dashboard.' },
    );
  }
  const unknown = [...said.keys()].filter((name) => !found.has(name));
  const writer =
    journal && changed.length > 0 ? await JournalWriter.open(journal.path).catch(unwritable(journal.shown)) : undefined;
  for (const { record, mark } of changed) {
    record.state = mark.done ? 'created' : 'failed';
    record.marked = true;
    if (mark.done && kind.numberOf && record.body) record.invoiceNumber = kind.numberOf(record.body);
    if (!mark.done) record.error = notDoneByMerchant;
    writer?.append(
      mark.done
        ? {
            type: 'created',
            key: record.key,
            ...(record.invoiceNumber !== undefined ? { invoiceNumber: record.invoiceNumber } : {}),
            marked: true,
            at,
          }
        : { type: 'failed', key: record.key, error: notDoneByMerchant, marked: true, at },
    );
  }
  await writer?.close().catch(unwritable(journal?.shown ?? ''));
  const done = changed.filter(({ mark }) => mark.done).length;
  return { done, notDone: changed.length - done, unknown, marks: changed.map(({ mark }) => mark) };
}

/** The error a record the merchant said was not done is journaled with. */
const notDoneByMerchant = 'not done, as the merchant said';
