import type { FieldIssue } from '../errors.js';
import { TextTable, grown } from './text-table.js';

// What happened to each record of a bulk run, as the summary, the report and --json tell it.

/** Where a record ended up. */
export type RecordStatus =
  /** Planned and waiting to be sent (only while the run is under way). */
  | 'pending'
  /** Created by this run. */
  | 'created'
  /** Created by an earlier run of the same journal; skipped. */
  | 'created-earlier'
  /** The service already held it (it answered that the invoice is a duplicate). */
  | 'already-existed'
  /** Not created; running the command again retries it. */
  | 'failed'
  /** Sent, outcome unknown: check it before sending it again. */
  | 'uncertain'
  /** Invalid: not sent. */
  | 'invalid'
  /** The same businessReference, amount and sendingDate as an earlier record of the file: not sent. */
  | 'duplicate'
  /** Changed since an earlier run sent it: not sent again. */
  | 'changed'
  /** Not sent: the run stopped first (interrupted, or the token was refused). */
  | 'not-sent'
  /** Valid and would be sent (--dry-run). */
  | 'valid';

/** One record's line in the report. */
export interface RecordResult {
  /** Position in the file, from 1. */
  record: number;
  line?: number;
  businessReference?: string;
  status: RecordStatus;
  invoiceNumber?: string;
  error?: string;
  issues?: FieldIssue[];
  /**
   * Already existed, found when sent again after an attempt of einvoice's (this run's or an earlier run's) whose answer
   * was lost: most likely that attempt created it.
   */
  afterLostAnswer?: boolean;
  /** For a duplicate: the record it repeats, and that record's line (its row, in a spreadsheet). */
  duplicateOf?: number;
  duplicateOfLine?: number;
}

/** The statuses that leave a record not created, so the run exits 6. */
export const unfinishedStatuses: ReadonlySet<RecordStatus> = new Set([
  'pending',
  'failed',
  'uncertain',
  'invalid',
  'changed',
  'not-sent',
]);

/** The statuses in the order `RecordResults` numbers them. */
const statuses: readonly RecordStatus[] = [
  'pending',
  'created',
  'created-earlier',
  'already-existed',
  'failed',
  'uncertain',
  'invalid',
  'duplicate',
  'changed',
  'not-sent',
  'valid',
];
const statusNumber = new Map(statuses.map((status, index) => [status, index]));

/** What few records have: kept in a map by index, beside the columns. */
type Details = Pick<RecordResult, 'error' | 'issues' | 'afterLostAnswer' | 'duplicateOf' | 'duplicateOfLine'>;
const detailNames = ['error', 'issues', 'afterLostAnswer', 'duplicateOf', 'duplicateOfLine'] as const;

/**
 * The results of a run, one per record of the file, in file order, by index from 0. They are kept in columns,
 * numbers in typed arrays and texts in text tables, rather than as one object per record: a plan of 100,000 records
 * held 100,000 objects until the run ended, and they cost the dry run a third of its peak memory and of its time
 * (text-table.ts says why). `get()` and iteration give each result as a `RecordResult`, made on the spot.
 */
export class RecordResults implements Iterable<RecordResult> {
  #count = 0;
  #records = new Int32Array(1024);
  /** The line (or row) of each record; 0 when it has none. */
  #lines = new Int32Array(1024);
  #statuses = new Uint8Array(1024);
  /** Each record's slot in `#texts` for its businessReference and its invoiceNumber; -1 for none. */
  #references = new Int32Array(1024);
  #invoiceNumbers = new Int32Array(1024);
  readonly #texts = new TextTable();
  readonly #details = new Map<number, Details>();

  /** The results of `list`, in its order. */
  static of(list: Iterable<RecordResult>): RecordResults {
    const results = new RecordResults();
    for (const result of list) results.push(result);
    return results;
  }

  /** How many records there are. */
  get length(): number {
    return this.#count;
  }

  /** Adds a result at the end; returns its index. */
  push(result: RecordResult): number {
    const index = this.#count++;
    if (index === this.#records.length) {
      this.#records = grown(this.#records, index + 1);
      this.#lines = grown(this.#lines, index + 1);
      this.#statuses = grown(this.#statuses, index + 1);
      this.#references = grown(this.#references, index + 1);
      this.#invoiceNumbers = grown(this.#invoiceNumbers, index + 1);
    }
    this.#records[index] = result.record;
    this.#lines[index] = result.line ?? 0;
    this.#statuses[index] = statusNumber.get(result.status) ?? 0;
    this.#references[index] = this.#slotOf(result.businessReference);
    this.#invoiceNumbers[index] = this.#slotOf(result.invoiceNumber);
    this.#setDetails(index, result);
    return index;
  }

  /** The status of the result at `index`. */
  status(index: number): RecordStatus {
    return statuses[this.#statuses[index] ?? 0] ?? 'pending';
  }

  /** Changes the result at `index`: each field of `changes` present replaces its value (undefined clears it). */
  update(index: number, changes: Partial<Omit<RecordResult, 'record' | 'line'>>): void {
    if (changes.status !== undefined) this.#statuses[index] = statusNumber.get(changes.status) ?? 0;
    if ('businessReference' in changes) this.#references[index] = this.#slotOf(changes.businessReference);
    if ('invoiceNumber' in changes) this.#invoiceNumbers[index] = this.#slotOf(changes.invoiceNumber);
    this.#setDetails(index, changes);
  }

  /** The result at `index`, as an object made now: changing it changes nothing here (see `update()`). */
  get(index: number): RecordResult {
    const line = this.#lines[index] ?? 0;
    const reference = this.#references[index] ?? -1;
    const invoiceNumber = this.#invoiceNumbers[index] ?? -1;
    return {
      record: this.#records[index] ?? 0,
      ...(line > 0 ? { line } : {}),
      businessReference: reference === -1 ? undefined : this.#texts.at(reference),
      status: this.status(index),
      ...(invoiceNumber === -1 ? {} : { invoiceNumber: this.#texts.at(invoiceNumber) }),
      ...this.#details.get(index),
    };
  }

  /** Every result whose status is `from` gets `to`. */
  replaceStatus(from: RecordStatus, to: RecordStatus): void {
    const before = statusNumber.get(from);
    const after = statusNumber.get(to) ?? 0;
    for (let index = 0; index < this.#count; index++)
      if (this.#statuses[index] === before) this.#statuses[index] = after;
  }

  /** How many results have one of `wanted` statuses. */
  count(...wanted: RecordStatus[]): number {
    const numbers = new Set(wanted.map((status) => statusNumber.get(status)));
    let count = 0;
    for (let index = 0; index < this.#count; index++) if (numbers.has(this.#statuses[index])) count += 1;
    return count;
  }

  /** The results with one of `wanted` statuses, in file order. */
  withStatus(...wanted: RecordStatus[]): RecordResult[] {
    const numbers = new Set(wanted.map((status) => statusNumber.get(status)));
    const found: RecordResult[] = [];
    for (let index = 0; index < this.#count; index++) {
      if (numbers.has(this.#statuses[index])) found.push(this.get(index));
    }
    return found;
  }

  *[Symbol.iterator](): Iterator<RecordResult> {
    for (let index = 0; index < this.#count; index++) yield this.get(index);
  }

  /** Each detail present in `changes` replaces the record's (undefined clears it); most records have none. */
  #setDetails(index: number, changes: Details): void {
    if (!this.#details.has(index) && detailNames.every((name) => changes[name] === undefined)) return;
    const details: Record<string, unknown> = { ...this.#details.get(index) };
    for (const name of detailNames) {
      if (!(name in changes)) continue;
      if (changes[name] === undefined) delete details[name];
      else details[name] = changes[name];
    }
    if (Object.keys(details).length > 0) this.#details.set(index, details as Details);
    else this.#details.delete(index);
  }

  #slotOf(text: string | undefined): number {
    return text === undefined ? -1 : this.#texts.add(text);
  }
}
