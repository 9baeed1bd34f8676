import type { FieldIssue } from '../errors.js';

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
  /** What to look at in the record, sent or not (a value a spreadsheet may have mangled, an amount kept). */
  warnings?: FieldIssue[];
  /**
   * Already existed, found when sent again after an attempt of einvoice's (this run's or an earlier run's) whose answer
   * was lost: most likely that attempt created it.
   */
  afterLostAnswer?: boolean;
  /** Done by the merchant's word (`--mark-created`, `--mark-refunded`), not by an answer of the service. */
  byMerchant?: boolean;
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

/**
 * The results of a run, one per record of the file, in file order, by index from 0. A result changes only through
 * `update()`; `get()` and iteration give copies.
 */
export class RecordResults implements Iterable<RecordResult> {
  readonly #results: RecordResult[] = [];

  /** The results of `list`, in its order. */
  static of(list: Iterable<RecordResult>): RecordResults {
    const results = new RecordResults();
    for (const result of list) results.push(result);
    return results;
  }

  /** How many records there are. */
  get length(): number {
    return this.#results.length;
  }

  /** Adds a result at the end; returns its index. */
  push(result: RecordResult): number {
    // The fields every result has sit in the object itself; the rarer ones (an error, issues) only on the results
    // that have them, so a run of a million records keeps a small object for each.
    const { record, line, businessReference, status, invoiceNumber, ...rarer } = result;
    const kept: RecordResult = { record, line, businessReference, status, invoiceNumber };
    for (const [name, value] of Object.entries(rarer)) if (value !== undefined) Object.assign(kept, { [name]: value });
    return this.#results.push(kept) - 1;
  }

  /** The status of the result at `index`. */
  status(index: number): RecordStatus {
    return this.#results[index]?.status ?? 'pending';
  }

  /** Changes the result at `index`: each field of `changes` present replaces its value (undefined clears it). */
  update(index: number, changes: Partial<Omit<RecordResult, 'record' | 'line'>>): void {
    const result = this.#results[index] as Record<string, unknown> | undefined;
    if (!result) return;
    for (const name in changes) {
      const value = changes[name as keyof typeof changes];
      if (value !== undefined || name in result) result[name] = value;
    }
  }

  /** The result at `index`, as a copy: changing it changes nothing here (see `update()`). */
  get(index: number): RecordResult {
    return present(this.#results[index] as RecordResult);
  }

  /** Every result whose status is `from` gets `to`. */
  replaceStatus(from: RecordStatus, to: RecordStatus): void {
    for (const result of this.#results) if (result.status === from) result.status = to;
  }

  /** How many results have one of `wanted` statuses. */
  count(...wanted: RecordStatus[]): number {
    let count = 0;
    for (const result of this.#results) if (wanted.includes(result.status)) count += 1;
    return count;
  }

  /** How many results have warnings. */
  countWithWarnings(): number {
    let count = 0;
    for (const result of this.#results) if (result.warnings) count += 1;
    return count;
  }

  /** The results with warnings, in file order. */
  withWarnings(): RecordResult[] {
    return this.#results.filter((result) => result.warnings).map(present);
  }

  /** The results with one of `wanted` statuses, in file order. */
  withStatus(...wanted: RecordStatus[]): RecordResult[] {
    return this.#results.filter((result) => wanted.includes(result.status)).map(present);
  }

  *[Symbol.iterator](): Iterator<RecordResult> {
    for (const result of this.#results) yield present(result);
  }
}

/** A copy of `result` with the fields it has, as --json and the report show it. */
function present(result: RecordResult): RecordResult {
  const copy: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(result)) if (value !== undefined) copy[name] = value;
  return copy as unknown as RecordResult;
}
