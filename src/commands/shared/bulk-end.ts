import { writeSync } from 'node:fs';
import { summarize, unfinishedStatuses, writeJsonReport, writeReport, type SendOutcome } from '../../bulk/index.js';
import type { BatchSummary, KindWords, Numbered, Plan, RecordKindName, RecordResult } from '../../bulk/index.js';
import type { ManyInvoices } from '../../sheet/index.js';
import type { CommandContext } from '../../context.js';
import { interruptedBy, PartialFailureError, ServiceUnavailableError } from '../../errors.js';
import { writeProblem } from '../../input/json-file.js';
import { renderSummary } from '../../output/bulk-summary.js';
import { inGithubActions } from '../../output/github-actions.js';
import { formatCount } from '../../schemas/number-text.js';
import type { Session } from '../../session.js';

// What a run over a file says once it ends, made from its results alone: the summary, the report, --json, GitHub's
// output, and the error that says what it left undone.

/** A run as its end tells it. */
export interface EndOfRun {
  plan: Plan;
  kind: RecordKindName;
  /** How the kind speaks of its records. */
  words: KindWords;
  input: ManyInvoices;
  /** A spreadsheet's records are named by their rows, other files' by their lines. */
  numbered: Numbered;
  /** When the run started (ms since the epoch). */
  started: number;
  environment: string;
  dryRun: boolean;
  /** The journal as messages name it, once the run keeps it. */
  journal(): string | undefined;
  /** `1/4` for a shard. */
  shard?: string;
  /** Where `--report` goes: resolved, and as the merchant named it. */
  report?: { path: string; given: string };
  /** What the merchant can do about the records the run left undone, in the kind's words. */
  whatNext(unfinished: readonly RecordResult[]): string;
  /** The records whose request may be out, as sending goes on. */
  sending: ReadonlySet<number>;
  /** Warnings of the run itself (not of a record), told at the terminal already: its other outputs carry them too. */
  warnings: readonly string[];
}

/** The end of one run: told once, by `tell()`, or at once on a second Ctrl-C. */
export class RunEnd {
  readonly #run: EndOfRun;
  readonly #session: Session;
  readonly #context: CommandContext;
  #jsonWritten = false;

  /** With --json, a second Ctrl-C writes the document at once, until the run ends (the command clears it). */
  constructor(run: EndOfRun, session: Session, context: CommandContext) {
    this.#run = run;
    this.#session = session;
    this.#context = context;
    if (session.terminal.json && context.interrupt) context.interrupt.lastWords = () => this.#lastWords();
  }

  /** How the run names its records: by row (a spreadsheet) or by line. */
  get numbered(): Numbered {
    return this.#run.numbered;
  }

  /** The run's summary after `durationMs`. */
  summary(durationMs: number): BatchSummary {
    const { plan, kind, words, environment, dryRun, shard } = this.#run;
    return summarize(plan.results, {
      kind,
      words,
      environment,
      dryRun,
      durationMs,
      journal: this.#run.journal(),
      shard,
      resume: plan.resume,
      alreadyExpired: plan.alreadyExpired,
      withoutReference: plan.withoutReference,
      warnings: this.#runWarnings(),
    });
  }

  /** The warnings of the run as a whole: those told once its plan was done, and its records without a reference. */
  #runWarnings(): string[] {
    const { plan, warnings } = this.#run;
    return [...warnings, ...(plan.withoutReference > 0 ? [withoutReferenceWarning(plan.withoutReference)] : [])];
  }

  /**
   * Tells the end: the summary (none for a refused run, whose error lists the problems and says what to do), the
   * report, --json and GitHub's output.
   */
  async tell(durationMs: number, refused?: { next: string }): Promise<void> {
    const { plan, input, numbered, report, words, started } = this.#run;
    const { terminal } = this.#session;
    const summary = this.summary(durationMs);
    if (!refused) terminal.info(renderSummary(summary, plan.results, terminal.err, numbered));
    if (report) {
      const suite = { input: input.name, words, durationMs, timestamp: new Date(started), warnings: summary.warnings };
      await writeReport(report.path, plan.results, numbered, suite).catch((error: unknown) => {
        throw new PartialFailureError(
          `The report could not be written to ${report.given}: ${writeProblem(error)}. The summary above says ` +
            'what the run did.',
          { hint: 'Running the same command again writes it (a rerun sends nothing twice).' },
        );
      });
    }
    if (terminal.json && !this.#jsonWritten) {
      this.#jsonWritten = true;
      await writeJsonReport(this.#context.stdout, summary, plan.results, numbered);
    }
    if (inGithubActions(this.#context.env)) {
      const { reportToGithub } = await import('./bulk-github.js');
      const unfinished = plan.results.withStatus(...unfinishedStatuses);
      const next = refused?.next ?? (unfinished.length > 0 ? this.#run.whatNext(unfinished) : undefined);
      const runWarnings = summary.warnings;
      await reportToGithub({ summary, results: plan.results, numbered, input, next, runWarnings }, this.#context);
    }
  }

  /** Tells the end of a run refused before sending: its error lists the problems; `next` says what to do. */
  refused(next: string): Promise<void> {
    return this.tell(Date.now() - this.#run.started, { next });
  }

  /**
   * --json on a second Ctrl-C, as the process ends: the records whose request may be out are told as uncertain, as
   * the journal holds them.
   */
  #lastWords(): void {
    if (this.#jsonWritten) return;
    this.#jsonWritten = true;
    const { plan, numbered, started, sending } = this.#run;
    for (let index = 0; index < plan.results.length; index++) {
      if (plan.results.status(index) !== 'pending') continue;
      plan.results.update(
        index,
        sending.has(index)
          ? { status: 'uncertain', error: 'stopped at once while its request was in flight: outcome unknown' }
          : { status: 'not-sent' },
      );
    }
    // The process ends as soon as this returns: the document goes to stdout at once, never left waiting for a pipe
    // to drain (which cut it short on Node 22).
    const stdout = this.#context.stdout;
    const out = stdout === process.stdout ? { write: writeToStdoutNow } : stdout;
    void writeJsonReport(out as NodeJS.WritableStream, this.summary(Date.now() - started), plan.results, numbered);
  }

  /** The error that says what the run left undone, if it did. */
  notDone(outcome: SendOutcome): Error | undefined {
    const { plan, dryRun, words } = this.#run;
    const { signal } = this.#context;
    if (outcome.journalError) {
      return new PartialFailureError(`Sending stopped: ${outcome.journalError.message}.`, {
        hint: 'Free the disk or fix the journal path, then run the same command again to resume.',
      });
    }
    if (outcome.authError) return outcome.authError;
    if (outcome.interrupted || signal?.aborted) {
      return interruptedBy(
        signal,
        'Interrupted: the requests in flight were finished; run the same command to resume.',
      );
    }
    if (outcome.serviceDown) {
      const notSent = plan.results.count('not-sent');
      return new ServiceUnavailableError(
        `Stopped after ${outcome.serviceDown.failures} failed attempts in a row that every record would meet ` +
          `(${outcome.serviceDown.reason}); ` +
          (notSent > 0
            ? `${formatCount(notSent)} ${notSent === 1 ? 'record was' : 'records were'} not sent, and a rerun sends them.`
            : 'every record had been tried, and a rerun sends the failed ones again.'),
        {
          mayHaveReachedService: false,
          hint: 'Run the same command again once the service answers. --stop-after-failures N changes the limit.',
        },
      );
    }
    const unfinished = plan.results.withStatus(...unfinishedStatuses);
    if (unfinished.length === 0) return undefined;
    // Invalid records with --skip-invalid, or records a journal holds back: a dry run answers as the real run
    // would (exit 6), in its own words.
    const line = dryRun
      ? `Dry run: ${skippedLine(unfinished, plan.results.length)}; nothing was sent`
      : notCreatedLine(unfinished, plan.results.length, words);
    return new PartialFailureError(`${line}.`, { hint: this.#run.whatNext(unfinished) });
  }
}

/** The run's one warning about records without a businessReference. */
export function withoutReferenceWarning(count: number): string {
  return (
    `${counted(count, 'record has', 'records have')} no businessReference: only this journal knows whether ` +
    `${count === 1 ? 'it was' : 'they were'} created, and a run from another journal (a new workflow run, another ` +
    'machine) would create them again. --reference-prefix gives each one a reference from its content.'
  );
}

/** "1 record has", "2 records have": the count and the words that agree with it. */
export function counted(count: number, one: string, many: string): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/**
 * "1 of 3 records is invalid", "2 of 3 records are invalid", "1 record is invalid" (of 1): the verb agrees; a run of
 * refunds says "refunds".
 */
export function ofRecords(count: number, total: number, one: string, many: string, noun = 'record'): string {
  const verb = count === 1 ? one : many;
  return total === 1
    ? `${formatCount(count)} ${noun} ${verb}`
    : `${formatCount(count)} of ${formatCount(total)} ${noun}s ${verb}`;
}

/** Writes `text` to the process's stdout before returning, waiting out a pipe that is full for a moment. */
function writeToStdoutNow(text: string): boolean {
  const bytes = Buffer.from(text);
  for (let written = 0; written < bytes.length;) {
    try {
      written += writeSync(1, bytes, written);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
    }
  }
  return true;
}

/**
 * Why a dry run's records would not be sent: "1 of 4 records is invalid and would be skipped", or with records a
 * journal holds back, "3 of 400 records would not be sent: 1 invalid, 2 sent by an earlier run with an unknown
 * outcome".
 */
function skippedLine(unfinished: RecordResult[], total: number): string {
  const count = (status: RecordResult['status']) => unfinished.filter((result) => result.status === status).length;
  const invalid = count('invalid');
  if (invalid === unfinished.length)
    return `${ofRecords(invalid, total, 'is invalid', 'are invalid')} and would be skipped`;
  const reasons = [
    invalid > 0 ? `${formatCount(invalid)} invalid` : undefined,
    count('uncertain') > 0
      ? `${formatCount(count('uncertain'))} sent by an earlier run with an unknown outcome`
      : undefined,
    count('changed') > 0 ? `${formatCount(count('changed'))} edited after an earlier run sent them` : undefined,
  ].filter((reason) => reason !== undefined);
  return `${ofRecords(unfinished.length, total, 'would not be sent', 'would not be sent')}: ${reasons.join(', ')}`;
}

/**
 * What became of the records not known to be created: "3 of 10 records were not created", "2 of 10 records may
 * have been created: their outcome is unknown", or both. An uncertain record may exist, so it is not called "not
 * created".
 */
function notCreatedLine(unfinished: RecordResult[], total: number, words: KindWords): string {
  const { made } = words;
  const of = (count: number, one: string, many: string) => ofRecords(count, total, one, many, words.ofFile);
  const uncertain = unfinished.filter((result) => result.status === 'uncertain').length;
  const changed = unfinished.filter((result) => result.status === 'changed').length;
  // An edited record whose earlier version was sent is not "not created": that version may exist, or does.
  if (changed === unfinished.length) {
    return of(changed, 'was edited after an earlier run sent it', 'were edited after an earlier run sent them');
  }
  const notCreated = unfinished.length - uncertain;
  const unknown = (count: number) => `may have been ${made}: ${count === 1 ? 'its' : 'their'} outcome is unknown`;
  if (uncertain === 0) return of(notCreated, `was not ${made}`, `were not ${made}`);
  if (notCreated === 0) return of(uncertain, unknown(uncertain), unknown(uncertain));
  return `${of(notCreated, `was not ${made}`, `were not ${made}`)}, and ${formatCount(uncertain)} ${unknown(uncertain)}`;
}
