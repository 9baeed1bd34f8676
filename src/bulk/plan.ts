import { interruptedBy, type FieldIssue } from '../errors.js';
import { ContentKeys, canonicalJson, contentHash } from './content-key.js';
import type { JournalState, JournaledRecord } from './journal-state.js';
import { parseRecord, wholeRecord } from './record-check.js';
import { recordAndLine, type IssuePlace, type RecordFinding, type SourceRecord } from '../sheet/index.js';
import { RecordResults, type RecordResult } from './results.js';
import type { JournalWriter } from './journal.js';
import type { CheckingKind } from './kind.js';
import { toMinorUnits } from '../schemas/money.js';
import { NamesSample } from './names-sample.js';

// Plans a batch before anything is sent: every record of the shard is checked by its kind (record-check.ts for an
// invoice, refund-check.ts for a refund), given its content key, checked against the earlier records of the file
// (what it may hold once) and against the journal of earlier runs. Each record to send is journaled with its final
// body (`planned`): the journal is the plan the send reads back, so no body is held in memory and none is written
// twice.

/** `--shard I/N`: the records whose position modulo N is I-1. */
export interface Shard {
  index: number;
  count: number;
}

export interface PlanOptions {
  kind: CheckingKind;
  /** The records of the file, in batches. */
  records: AsyncIterable<SourceRecord[]>;
  shard?: Shard;
  /** The journal of earlier runs: the plan takes each record it finds in the file out of `records`. */
  journal?: JournalState;
  resendUncertain: boolean;
  /** Receives a `planned` entry for each record to send; absent for a dry run. */
  planned?: Pick<JournalWriter, 'appendPlanned' | 'written'>;
  signal?: AbortSignal;
  /** How issues name their record and field (default: record and line). */
  place?: IssuePlace;
}

/** How a rerun relates to the earlier runs of its journal. */
export interface ResumeCounts {
  /** Created by an earlier run: skipped. */
  done: number;
  /** Sent before without being created (failed, or unknown with a businessReference): sent again. */
  retry: number;
  /** Sent before, outcome unknown, no businessReference: not sent again. */
  heldUncertain: number;
  /** Not in the journal. */
  new: number;
  /** In the journal under other content (same businessReference, or same position): changed since. */
  changed: number;
}

export interface Plan {
  results: RecordResults;
  /** Every problem of every invalid record; each path names the record, its line and the field. */
  issues: RecordFinding[];
  /** Records to send. */
  toSend: number;
  /** The amount of the records to send, in minor units, for a kind that has one (a refund). */
  totalMinor?: bigint;
  /**
   * The valid records the file (or its shard) holds, repeats aside, whatever earlier runs did with them, and their
   * amount for a kind that has one: what a run can pin, the same on every rerun.
   */
  inFile: { count: number; totalMinor?: bigint };
  /** The index among the results of each record to send, in the order of their `planned` entries. */
  sendOrder: number[];
  /** The indexes of records an earlier run sent without learning the outcome. */
  previouslySent: Set<number>;
  /** Every warning of every record, invalid ones included; each path names the record, its line and the field. */
  warnings: RecordFinding[];
  /** Records sent although their expiry had passed (`allowExpired`). */
  alreadyExpired: number;
  /** Records held back for their dates alone (without `allowExpired`). */
  heldForDates: number;
  /** Records held back for their warnings alone (`strict`). */
  heldForWarnings: number;
  /**
   * Valid records without a businessReference: a run of another journal (a new workflow run, another machine)
   * cannot know they were created, and would create them again.
   */
  withoutReference: number;
  /** A few of the names the records to send reach their customers by, as they will be sent (`nameOf`). */
  names: string[];
  resume?: ResumeCounts;
}

/** True when the record at `position` (from 0) belongs to `shard`. */
export function inShard(position: number, shard: Shard | undefined): boolean {
  return !shard || position % shard.count === shard.index - 1;
}

/** Plans every record; those to send are journaled as `planned`, in file order. */
export async function planBatch(options: PlanOptions): Promise<Plan> {
  const { kind, journal } = options;
  // Content keys match records with the journal; a dry run without a journal needs none.
  const keys = journal || options.planned ? new ContentKeys() : undefined;
  const results = new RecordResults();
  const issues: RecordFinding[] = [];
  const warnings: RecordFinding[] = [];
  let alreadyExpired = 0;
  let heldForDates = 0;
  let heldForWarnings = 0;
  let withoutReference = 0;
  /** The first record of each body the file may hold once, by its key. */
  const firstOf = new Map<string, number>();
  const unmatched: Unmatched[] = [];
  // Only a record whose businessReference (or, without one, position) the journal knows can have been edited: the
  // others are new at once, so a resume holds nothing for them until the end. Made when a record is first not
  // found in the journal by its content: a resume of the same file never needs it.
  let journaledPlaces: Set<string | number> | undefined;
  const resume: ResumeCounts = { done: 0, retry: 0, heldUncertain: 0, new: 0, changed: 0 };
  let toSend = 0;
  let totalMinor = 0n;
  const inFile = { count: 0, totalMinor: 0n };
  const countInFile = (body: Record<string, unknown> | undefined) => {
    inFile.count += 1;
    if (kind.amountOf && body) inFile.totalMinor += toMinorUnits(kind.amountOf(body));
  };
  const sendOrder: number[] = [];
  const names = new NamesSample();
  const previouslySentIndexes = new Set<number>();
  const place = options.place ?? recordAndLine;

  /** Plans one record into `result`, at `index` of the results, and journals it when it is to be sent. */
  const planRecord = (source: SourceRecord, index: number, result: RecordResult): void => {
    const placed = (issue: FieldIssue): RecordFinding => {
      const path = place(source, issue.path === wholeRecord ? undefined : issue.path);
      const where = place(source);
      // What follows the record's name: `customer.mobile`, or a sheet's `column Mobile (C)`.
      const field =
        issue.path === wholeRecord
          ? undefined
          : (place.field?.(issue.path) ?? (path.slice(where.length).replace(/^[:,]\s*/, '') || undefined));
      return { ...issue, path, where, field };
    };
    const invalid = (found: FieldIssue[]) => {
      result.status = 'invalid';
      result.issues = found;
      for (const issue of found) issues.push(placed(issue));
    };
    /** Every warning of the record is told, whatever becomes of it. */
    const warn = (found: FieldIssue[]) => {
      if (found.length === 0) return;
      result.warnings = found;
      for (const warning of found) warnings.push(placed(warning));
    };

    const parsed = source.value ? { record: source.value } : parseRecord(source.text);
    if ('issue' in parsed) {
      invalid([parsed.issue]);
      return;
    }
    const { record } = parsed;
    const ownReference = kind.ownReference(record);
    result.businessReference = ownReference;
    let canonical: string | undefined;
    const content = () => (canonical ??= canonicalJson(record));
    const hash = keys ? contentHash(kind.name, content()) : '';
    // With a businessReference, the same content again is the same invoice (rule 2.3.2) and is never sent: only
    // records without one are told apart by how many times their content came before.
    const key = keys && ownReference === undefined ? keys.next(hash) : hash;
    // A row the sheet could not read whole is invalid and takes no entry of the journal: what could be read of it
    // may say the same as a row that was sent.
    const journaled = source.issues ? undefined : journal?.records.get(key);
    // Found again: what is left in the journal afterwards is what the file no longer holds as it was, and a resume
    // of a large run gives back each record's memory as it goes.
    if (journaled) journal?.records.delete(key);
    // Planned by a run that stopped before sending it: as if the journal did not hold it.
    const earlier = journaled?.state === 'planned' ? undefined : journaled;

    // A record that may have been sent is sent again with the very body it was sent with, so the service can
    // recognise it as a duplicate; any other is planned afresh (against the same instant for relative dates).
    const previouslySent = earlier?.state === 'sent' || earlier?.state === 'uncertain';
    const sentBefore = previouslySent ? (earlier?.body as Record<string, unknown> | undefined) : undefined;
    const checked = kind.check(record, result.record, content, sentBefore);
    const body = source.issues ? undefined : checked.body;
    const once = body && kind.sameAs(body);

    if (earlier?.state === 'created') {
      // A record the file no longer holds as valid is not counted, as an invalid one is not.
      if (body) countInFile(body);
      result.status = 'created-earlier';
      result.invoiceNumber = earlier.invoiceNumber;
      result.businessReference = stringOf(body?.businessReference) ?? earlier.businessReference;
      if (once && !firstOf.has(once.key)) firstOf.set(once.key, index);
      resume.done += 1;
      return;
    }
    warn(checked.warnings);
    if (!body) {
      invalid(withSourceIssues(source.issues, [...checked.issues, ...(checked.held?.issues ?? [])]));
      return;
    }
    if (checked.held) {
      if (checked.held.reason === 'dates') heldForDates += 1;
      else heldForWarnings += 1;
      invalid(checked.held.issues);
      return;
    }
    result.businessReference = stringOf(body.businessReference);
    if (kind.numberOf) result.invoiceNumber = kind.numberOf(body);
    const firstIndex = once && firstOf.get(once.key);
    if (once && firstIndex === undefined) firstOf.set(once.key, index);
    if (once && firstIndex !== undefined) {
      const first = results.get(firstIndex);
      // Named as the file names it: "row 12" of a spreadsheet, "record 3 (line 4)" of a JSON file.
      const named = place({ position: first.record - 1, line: first.line ?? first.record });
      if (once.repeat === 'invalid') {
        invalid([
          { path: once.field ?? wholeRecord, message: `${once.why} ${named}`, cause: once.why, figure: `as ${named}` },
        ]);
        return;
      }
      result.status = 'duplicate';
      result.duplicateOf = first.record;
      result.duplicateOfLine = first.line;
      result.error = `${once.why} ${named}`;
      return;
    }
    countInFile(body);
    if (previouslySent && !kind.resendable(body) && !options.resendUncertain) {
      result.status = 'uncertain';
      // A `sent` entry with no outcome after it: that run ended (killed, or the machine stopped) while it was out.
      result.error = earlier?.error
        ? `sent by an earlier run, outcome unknown (${earlier.error})`
        : 'sent by an earlier run that ended before its answer came: outcome unknown';
      resume.heldUncertain += 1;
      return;
    }
    if (earlier) resume.retry += 1;
    else if (journal && (journaledPlaces ??= placesIn(journal)).has(ownReference ?? result.record)) {
      unmatched.push({ index, ownReference, amountMinor: kind.amountOf && toMinorUnits(kind.amountOf(body)) });
    } else if (journal) resume.new += 1;
    toSend += 1;
    names.add(kind.nameOf?.(body));
    if (kind.amountOf) totalMinor += toMinorUnits(kind.amountOf(body));
    if (checked.referenceless) withoutReference += 1;
    if (checked.expired) alreadyExpired += 1;
    // A dry run journals nothing, and spares the JSON text of every body.
    if (!options.planned) return;
    sendOrder.push(index);
    if (previouslySent) previouslySentIndexes.add(index);
    const { line, businessReference } = result;
    options.planned.appendPlanned({ key, record: result.record, line, businessReference }, JSON.stringify(body));
  };

  for await (const batch of options.records) {
    if (options.signal?.aborted)
      throw interruptedBy(options.signal, 'Interrupted while checking the records: nothing was sent.');
    for (const source of batch) {
      if (!inShard(source.position, options.shard)) continue;
      const result: RecordResult = { record: source.position + 1, line: source.line, status: 'pending' };
      planRecord(source, results.length, result);
      results.push(result);
    }
    // The journal keeps up with the plan, so no more than a batch of bodies waits in memory.
    await options.planned?.written();
  }

  if (journal) {
    const held = holdChanged(results, unmatched, journal, resume, kind);
    toSend -= held.count;
    totalMinor -= held.amountMinor;
  }
  return {
    results,
    issues,
    toSend,
    ...(kind.amountOf ? { totalMinor } : {}),
    inFile: kind.amountOf ? inFile : { count: inFile.count },
    sendOrder,
    previouslySent: previouslySentIndexes,
    warnings,
    alreadyExpired,
    heldForDates,
    heldForWarnings,
    withoutReference,
    names: names.names(),
    resume: journal ? resume : undefined,
  };
}

/** The issues met while reading a record first, then the schema's about other fields. */
function withSourceIssues(own: FieldIssue[] | undefined, checked: FieldIssue[]): FieldIssue[] {
  if (!own) return checked;
  const covered = (path: string) => own.some((issue) => path === issue.path || path.startsWith(`${issue.path}.`));
  return [...own, ...checked.filter((issue) => !covered(issue.path))];
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A record to send that the journal may hold an earlier version of, with its amount for a kind that has one. */
interface Unmatched {
  index: number;
  ownReference?: string;
  amountMinor?: bigint;
}

/** The businessReferences, and the positions of records without one, that the journal holds. */
function placesIn(journal: JournalState): Set<string | number> {
  const places = new Set<string | number>();
  for (const entry of journal.records.values()) {
    if (entry.state === 'planned') continue;
    if (entry.businessReference !== undefined) places.add(entry.businessReference);
    if (entry.record !== undefined) places.add(entry.record);
  }
  return places;
}

/**
 * Counts the records not in the journal that it may hold an earlier version of as new or changed. A record changed when the journal holds another
 * content under its businessReference (or, without one, at its position) that no record of the file has now.
 * A changed record whose earlier version was sent is held back: sending it would make a second invoice.
 * Returns how many were held.
 */
function holdChanged(
  results: RecordResults,
  unmatched: Unmatched[],
  journal: JournalState,
  resume: ResumeCounts,
  kind: Pick<CheckingKind, 'words' | 'numberOf'>,
): { count: number; amountMinor: bigint } {
  const byReference = new Map<string, JournaledRecord>();
  const byPosition = new Map<number, JournaledRecord>();
  for (const entry of journal.records.values()) {
    if (entry.state === 'planned') continue;
    if (entry.businessReference !== undefined) byReference.set(entry.businessReference, entry);
    if (entry.record !== undefined) byPosition.set(entry.record, entry);
  }
  let held = 0;
  let amountMinor = 0n;
  for (const { index, ownReference, amountMinor: amount } of unmatched) {
    const { record } = results.get(index);
    const before = ownReference !== undefined ? byReference.get(ownReference) : byPosition.get(record);
    if (!before) {
      resume.new += 1;
      continue;
    }
    resume.changed += 1;
    if (before.state === 'created' || before.state === 'sent' || before.state === 'uncertain') {
      held += 1;
      amountMinor += amount ?? 0n;
      // A record that names its invoice before it is sent (a refund's) was not made as that invoice.
      const madeAs = before.invoiceNumber && !kind.numberOf ? ` as invoice ${before.invoiceNumber}` : '';
      results.update(index, {
        status: 'changed',
        invoiceNumber: before.invoiceNumber,
        error:
          before.state !== 'created'
            ? 'edited after an earlier run sent it (outcome unknown); not sent again'
            : `edited after an earlier run ${kind.words.made} it${madeAs}; not sent again`,
      });
    }
  }
  return { count: held, amountMinor };
}
