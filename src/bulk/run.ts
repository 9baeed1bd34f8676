import { dirname } from 'node:path';
import type { ServiceClient } from '../api/client.js';
import { AuthError, FileWriteError, UsageError } from '../errors.js';
import { makePrivateFolder } from '../private-file.js';
import { undecodableMessage } from '../input/encoding-messages.js';
import { JournalWriter, journalVersion } from './journal.js';
import { settle, type Settled } from './merchant-word.js';
import { unwritable } from './unwritable.js';
import type { BulkKind, KindClient } from './kind.js';
import { lockJournal } from './journal-lock.js';
import { plannedEntries, readJournal, type JournalState } from './journal-state.js';
import { checkJournalFits, type JournalPlace, type JournalTarget } from './journal-target.js';
import { planBatch, type Plan, type Shard } from './plan.js';
import { sendRecords, type SendCounters, type SendEntry, type SendOptions, type SendOutcome } from './send.js';
import { recordsOf, type ManyInvoices, type SheetOptions } from '../sheet/index.js';
import { undecodableOf, WrongEncodingError } from './second-look.js';

// A run over a file of many records, from the journal's lock to its last entry, in two steps with the command's
// decision between them: plan every record into the journal (`planBulk()`), then send them (`send()`), or take the
// plan back when nothing is sent (`close()`). This module reads no flag of the command line.

/** What a bulk run is asked to do. */
export interface BulkRequest {
  kind: BulkKind;
  input: ManyInvoices;
  /** How a sheet is read. */
  sheet: SheetOptions;
  /** The journal; absent for a dry run of stdin. */
  journal?: JournalPlace;
  target: JournalTarget;
  shard?: Shard;
  dryRun: boolean;
  /** Send again the records an earlier run sent without learning the outcome (never for a refund). */
  resendUncertain: boolean;
  /**
   * The merchant's word on records an earlier run sent, by the name the kind gives each (`markName`: a refund's
   * invoice number, an invoice's row): `done` ones are recorded as done, `notDone` ones as failed (a rerun sends them
   * again).
   */
  settle?: { done: readonly string[]; notDone: readonly string[] };
  sending: Pick<SendOptions, 'concurrency' | 'rate' | 'retries' | 'maxRetryAfterMs' | 'stopAfterFailures'>;
  /** The instant dates are checked against: the service's own clock where it has one (a sandbox). */
  now: Date;
  signal?: AbortSignal;
}

/** What the sending needs of the command: the service, and who watches. */
export interface SendHooks {
  /** The service, once the run is about to send. */
  connect(): Promise<{ client: KindClient & Pick<ServiceClient, 'readToken'>; close(): Promise<void> }>;
  /** Shows the sending's progress; stopped when it ends. */
  progress?(total: number, counters: SendCounters): { stop(): void } | undefined;
  /** Hears each record's outcome once it is journaled. */
  settled?: SendOptions['settled'];
}

/**
 * A file planned into its journal, holding the journal's lock: the command decides, then sends it or not, and
 * closes it in every case.
 */
export interface PlannedRun {
  readonly plan: Plan;
  /** Lines of the journal of earlier runs that could not be read, and were ignored. */
  readonly damagedLines: number;
  /** The merchant's word on records sent before: those it settled as done and as not done, and the names the journal
   * holds no sent record of (nothing was changed for them). */
  readonly settled: Settled;
  /** The records whose request may be out, as sending goes on. */
  readonly sending: ReadonlySet<number>;
  /** The run leaves a journal to name (it sent, or one was there before). */
  journalKept(): boolean;
  /** Sends the plan, once; nothing for a dry run, a run without a journal, an empty plan or an aborted run. */
  send(hooks: SendHooks): Promise<SendOutcome>;
  /** Takes the plan back if nothing was sent, and lets the journal go. */
  close(): Promise<void>;
}

/**
 * Plans a file of many records: the journal's lock, what earlier runs left (and the merchant's word on uncertain
 * records), then every record checked and its plan written into the journal. Nothing is sent yet.
 */
export async function planBulk(request: BulkRequest): Promise<PlannedRun> {
  const { input, journal, dryRun } = request;
  const kind = request.kind.sending.name;
  const shard = request.shard ? `${request.shard.index}/${request.shard.count}` : undefined;
  if (!dryRun && journal) await makeJournalFolder(journal);
  const release =
    dryRun || !journal ? undefined : await lockJournal(journal.path).catch(unwritable(`${journal.shown}.lock`));
  /** This run's entries of the journal: its plan, then what it sent. Taken back if it sends nothing. */
  let writer: JournalWriter | undefined;
  try {
    // The merchant's word may name a record that failed: its body says which invoice it refunds.
    const earlier = journal
      ? await readJournal(journal.path, { failedBodies: request.settle !== undefined })
      : undefined;
    await checkJournalFits(earlier, journal, { ...request.target, kind }, shard);
    // A rerun resolves relative dates as its first run did.
    const now = earlier?.resolveDatesAt ?? request.now;
    const checking = request.kind.checking({ now, datesAt: request.now });
    // The merchant's word is journaled at once, kept whether or not this run sends (a dry run only shows it).
    const settled = request.settle
      ? await settle(earlier, request.settle, checking, dryRun || !journal ? undefined : journal)
      : { done: 0, notDone: 0, unknown: [], marks: [] };
    if (!dryRun && journal) {
      writer = await JournalWriter.open(journal.path).catch(unwritable(journal.shown));
      writer.append({
        type: 'run',
        version: journalVersion,
        at: new Date().toISOString(),
        resolveDatesAt: now.toISOString(),
        kind,
        input: input.name,
        ...(shard ? { shard } : {}),
        environment: request.target.environment,
        service: request.target.service,
      });
    }
    const source = await recordsOf(input, { ...request.sheet, columns: request.kind.columns });
    const plan = await planBatch({
      kind: checking,
      resendUncertain: request.resendUncertain,
      records: source.records,
      place: source.place,
      shard: request.shard,
      journal: earlier,
      planned: writer,
      signal: request.signal,
    })
      .catch(readInTheWrongEncoding(request))
      .catch(unwritable(`${journal?.shown}`));
    return new Planned(request, plan, { writer, journal, earlier, release }, settled);
  } catch (error) {
    await writer?.discard();
    await release?.();
    throw error;
  }
}

/** A planned run, from its plan to its journal's release. */
class Planned implements PlannedRun {
  readonly sending = new Set<number>();
  readonly damagedLines: number;
  #startedSending = false;
  #sendCalled = false;
  #closed = false;

  constructor(
    readonly request: BulkRequest,
    readonly plan: Plan,
    readonly held: {
      writer: JournalWriter | undefined;
      journal: JournalPlace | undefined;
      earlier: JournalState | undefined;
      release: (() => Promise<void>) | undefined;
    },
    readonly settled: Settled,
  ) {
    this.damagedLines = held.earlier?.damagedLines ?? 0;
  }

  journalKept(): boolean {
    return Boolean(!this.request.dryRun && this.held.journal && (this.#startedSending || this.held.earlier));
  }

  async send(hooks: SendHooks): Promise<SendOutcome> {
    // A second sending would read this run's plan back and send it again: for a refund, money sent twice.
    if (this.#sendCalled || this.#closed) throw new Error('A planned run is sent once, before it is closed.');
    this.#sendCalled = true;
    const { writer, journal } = this.held;
    if (!writer || this.plan.toSend === 0 || this.request.signal?.aborted) return { interrupted: false };
    const outcome = await sendPlan(this.request, hooks, this.plan, {
      service: await hooks.connect(),
      journal: writer,
      journalShown: journal?.shown ?? writer.path,
      sending: this.sending,
      onSending: () => (this.#startedSending = true),
    });
    // Its last entries (created, failed) are written by the close: one that fails is told, not swallowed.
    await writer.close().catch((error: unknown) => {
      outcome.journalError ??= error instanceof Error ? error : new Error(String(error));
    });
    return outcome;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#startedSending) await this.held.writer?.close().catch(() => undefined);
    else await this.held.writer?.discard();
    await this.held.release?.();
  }
}

/** Why a folder could not be made, by its error code, in the merchant's words. */
const folderProblems: Record<string, string> = {
  EEXIST: 'it is a file, not a folder',
  ENOTDIR: 'a file stands where one of the folders above it should be',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOENT: 'no folder can be made there',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
};

/**
 * Makes the journal's folder and those above it when missing, the user's alone (0700) as the journal holds every
 * invoice's body; one that cannot be made stops the run before anything is sent.
 */
async function makeJournalFolder(journal: JournalPlace): Promise<void> {
  try {
    await makePrivateFolder(dirname(journal.path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const problem = code in folderProblems ? `${folderProblems[code]} (${code})` : (error as Error).message;
    throw new FileWriteError(
      `Cannot make the folder ${dirname(journal.shown)} for the journal ${journal.shown}: ${problem}; nothing was sent.`,
      {
        hint: 'Give --journal a path in a folder that can be made or written to, then run the same command again.',
        cause: error,
      },
    );
  }
}

/**
 * A file refused as it was read (a sheet's header, JSON that does not parse) whose bytes are not text in the
 * encoding it was read in, found so far or in the rest of the file: the encoding is the cause to tell, and the
 * problems met reading it (the header's) are kept beside it.
 */
function readInTheWrongEncoding(request: BulkRequest): (error: unknown) => Promise<never> {
  return async (error) => {
    if (!(error instanceof UsageError)) throw error;
    const { input } = request;
    const found = input.undecodable() ?? (await undecodableOf(request));
    if (!found) throw error;
    const { problem, hint } = undecodableMessage(found, `--file ${input.name}`, input.format === 'csv');
    throw new WrongEncodingError(`${problem}; nothing was sent.`, found, { issues: error.issues, hint });
  };
}

/** What the sending of one run works with. */
interface Sending {
  service: Awaited<ReturnType<SendHooks['connect']>>;
  /** The journal, holding this run's plan. */
  journal: JournalWriter;
  /** The journal's path as messages name it. */
  journalShown: string;
  /** Kept up to date with the records whose request may be out. */
  sending: Set<number>;
  /** Called once the token is read and the run is about to send. */
  onSending(): void;
}

/** Reads the token, then sends the planned records with a pool of workers. */
async function sendPlan(request: BulkRequest, hooks: SendHooks, plan: Plan, run: Sending): Promise<SendOutcome> {
  const { service, journal } = run;
  // The token is read before anything is sent: one that cannot be sent stops the run, its journal untouched.
  try {
    await service.client.readToken();
  } catch (error) {
    await service.close();
    if (error instanceof AuthError) return { interrupted: false, authError: error };
    throw error;
  }
  run.onSending();
  const counters: SendCounters = { done: 0, failed: 0, uncertain: 0, retries: 0 };
  const progress = hooks.progress?.(plan.toSend, counters);
  try {
    // The run's instant for relative dates and its plan must survive any crash: a rerun resumes from them.
    await journal.durable().catch(unwritable(run.journalShown));
    return await sendRecords({
      ...request.sending,
      kind: request.kind.sending,
      client: service.client,
      journal,
      entries: entriesToSend(journal, plan),
      results: plan.results,
      signal: request.signal,
      progress: counters,
      sending: run.sending,
      settled: hooks.settled,
    });
  } finally {
    progress?.stop();
    await service.close();
  }
}

/** The records to send, read back from this run's `planned` entries, which the plan wrote in its send order. */
async function* entriesToSend(journal: JournalWriter, plan: Plan): AsyncGenerator<SendEntry> {
  let next = 0;
  for await (const planned of plannedEntries(journal.path, journal.startsAt)) {
    const index = plan.sendOrder[next++] as number;
    yield { ...planned, index, previouslySent: plan.previouslySent.has(index) };
  }
}
