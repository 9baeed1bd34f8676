import { resolve } from 'node:path';
import type { InvoiceFileInput } from '../../bulk/input-format.js';
import { JournalWriter, journalVersion } from '../../bulk/journal.js';
import { lockJournal } from '../../bulk/journal-lock.js';
import { plannedEntries, readJournal } from '../../bulk/journal-state.js';
import { checkJournalFits, journalFor, targetOf } from '../../bulk/journal-target.js';
import { bulkDefaults, type BulkFlags } from '../../bulk/options.js';
import { planBatch, type Plan } from '../../bulk/plan.js';
import { startProgress } from '../../bulk/progress.js';
import { readRecords, type IssuePlace, type SourceRecord } from '../../bulk/records.js';
import { writeJsonReport, writeReport, type Numbered } from '../../bulk/report.js';
import { unfinishedStatuses, type RecordResult } from '../../bulk/results.js';
import { sendRecords, type SendCounters, type SendEntry, type SendOutcome } from '../../bulk/send.js';
import { summarize } from '../../bulk/summary.js';
import { renderSummary } from '../../output/bulk-summary.js';
import { inGithubActions } from '../../output/github-actions.js';
import { defaultMaxRetryAfterSeconds, type CommandContext } from '../../context.js';
import {
  AuthError,
  FileWriteError,
  InterruptedError,
  interruptedBy,
  PartialFailureError,
  ServiceUnavailableError,
  UsageError,
} from '../../errors.js';
import { invoiceFromFlags } from '../../input/invoice-flags.js';
import { undecodableMessage } from '../../input/text-encoding.js';
import type { InvoiceKind } from '../../schemas/invoice.js';
import { formatCount } from '../../schemas/number-text.js';
import { countOf } from '../../output/format.js';
import { writeProblem } from '../../input/json-file.js';
import { checkWritable } from '../../private-file.js';
import type { Session } from '../../session.js';
import { listedIssues } from '../../output/errors.js';
import { terminalSafe } from '../../output/safe-text.js';
import type { CreateOptions } from './options.js';

export interface BulkCreateOptions extends CreateOptions, BulkFlags {}

type ManyInvoices = Extract<InvoiceFileInput, { kind: 'many' }>;

/**
 * `einvoice create single|recurring --file` with a JSON array or NDJSON: plan and validate every record, then send
 * them with a pool of workers, journaling each step so that running the same command again resumes.
 */
export async function createInvoicesInBulk(
  kind: InvoiceKind,
  options: BulkCreateOptions,
  session: Session,
  input: ManyInvoices,
  context: CommandContext,
): Promise<void> {
  const started = Date.now();
  const { terminal, profile } = session;
  // This command stops gracefully on the first Ctrl-C: it finishes the requests in flight and says where it stands.
  if (context.interrupt) context.interrupt.graceful = true;
  const oneInvoiceOnly = [options.save ? '--save' : '', options.printCommand ? '--print-command' : ''].filter(Boolean);
  if (oneInvoiceOnly.length > 0) {
    throw new UsageError(`${oneInvoiceOnly.join(' and ')} apply only to one invoice; nothing was sent.`, {
      hint: '--report FILE writes what happened to each record of a file of many.',
    });
  }
  const reportPath = options.report === undefined ? undefined : resolve(context.cwd, options.report);
  // A report that cannot be written is refused now, not found out after the invoices are created.
  if (reportPath) {
    await checkWritable(reportPath).catch((error: unknown) => {
      throw new UsageError(`Cannot write --report ${options.report}: ${writeProblem(error)}; nothing was sent.`);
    });
  }
  const flags = invoiceFromFlags(options);
  if (flags.issues.length > 0)
    throw new UsageError('Invalid invoice flags; nothing was sent.', { issues: flags.issues });
  const dryRun = Boolean(options.dryRun);
  const target = targetOf(profile, context.env);
  const journal = journalFor(options, input, context, dryRun, target.environment);
  const shard = options.shard ? `${options.shard.index}/${options.shard.count}` : undefined;

  const release =
    dryRun || !journal ? undefined : await lockJournal(journal.path).catch(unwritable(`${journal.shown}.lock`));
  /** This run's entries of the journal: its plan, then what it sent. Taken back if it sends nothing. */
  let writer: JournalWriter | undefined;
  let startedSending = false;
  try {
    const earlier = journal ? await readJournal(journal.path) : undefined;
    await checkJournalFits(earlier, journal, { ...target, kind }, shard);
    if (earlier && earlier.damagedLines > 0) {
      terminal.warn(`${earlier.damagedLines} damaged lines of the journal ${journal?.shown} were ignored.`);
    }
    // The sandbox's clock when the target is a sandbox whose clock was moved; a rerun resolves as its first run did.
    const clockNow = await session.now();
    const now = earlier?.resolveDatesAt ?? clockNow;
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
        environment: target.environment,
        service: target.service,
      });
    }
    const source = await recordsOf(input, options);
    const droppedFields = options.dropUnknownFields ? new Map<string, number>() : undefined;
    const plan = await planBatch({
      kind,
      records: source.records,
      place: source.place,
      defaults: profile.defaults,
      flags: flags.invoice,
      now,
      timeZone: profile.timeZone,
      allowExpired: Boolean(options.allowExpired),
      droppedFields,
      checkDatesAt: clockNow,
      acceptAmountConflicts: Boolean(options.yes),
      referencePrefix: options.referencePrefix,
      shard: options.shard,
      journal: earlier,
      resendUncertain: Boolean(options.resendUncertain),
      planned: writer,
      signal: context.signal,
    })
      .catch(readInTheWrongEncoding(input))
      .catch(unwritable(`${journal?.shown}`));
    if (droppedFields && droppedFields.size > 0) {
      const named = [...droppedFields].map(([path, count]) => `${path} (${countOf(count, 'record')})`);
      terminal.warn(`Dropped fields the spec does not list: ${named.join(', ')}.`);
    }
    if (plan.results.length === 0) terminal.warn(`--file ${input.name} holds no invoice records: nothing to send.`);
    // A spreadsheet's records are named by its row numbers.
    const numbered: Numbered = input.format === 'csv' ? 'row' : 'line';
    const summaryOf = (durationMs: number) =>
      summarize(plan.results, {
        kind,
        environment: profile.name,
        dryRun,
        durationMs,
        // Named once a run has sent: one refused, or with nothing to send, leaves the journal as it was.
        journal: !dryRun && journal && (startedSending || earlier) ? journal.shown : undefined,
        shard,
        resume: plan.resume,
        alreadyExpired: plan.alreadyExpired,
      });
    // Records whose request may be out: a second Ctrl-C tells them as uncertain, as the journal does.
    const sending = new Set<number>();
    let jsonWritten = false;
    if (terminal.json && context.interrupt) {
      context.interrupt.lastWords = () => {
        if (jsonWritten) return;
        jsonWritten = true;
        for (let index = 0; index < plan.results.length; index++) {
          if (plan.results.status(index) !== 'pending') continue;
          plan.results.update(
            index,
            sending.has(index)
              ? { status: 'uncertain', error: 'stopped at once while its request was in flight: outcome unknown' }
              : { status: 'not-sent' },
          );
        }
        // stdout (a pipe, a file or a terminal) is written synchronously on Linux and macOS: all of it is out before
        // the process ends.
        void writeJsonReport(context.stdout, summaryOf(Date.now() - started), plan.results, numbered);
      };
    }
    const finish = async (durationMs: number, showSummary = true) => {
      const summary = summaryOf(durationMs);
      if (showSummary) terminal.info(renderSummary(summary, plan.results, terminal.err, numbered));
      if (reportPath) {
        const suite = { input: input.name, kind, durationMs, timestamp: new Date(started) };
        await writeReport(reportPath, plan.results, numbered, suite).catch((error: unknown) => {
          throw new PartialFailureError(
            `The report could not be written to ${options.report}: ${writeProblem(error)}. The summary above says ` +
              'what the run did.',
            { hint: 'Running the same command again writes it (a rerun sends nothing twice).' },
          );
        });
      }
      if (terminal.json && !jsonWritten) {
        jsonWritten = true;
        await writeJsonReport(context.stdout, summary, plan.results, numbered);
      }
      if (inGithubActions(context.env)) {
        const { reportToGithub } = await import('./github-run.js');
        const unfinished = plan.results.withStatus(...unfinishedStatuses);
        const next = unfinished.length > 0 ? whatNext(unfinished) : undefined;
        await reportToGithub({ summary, results: plan.results, numbered, input, next }, context);
      }
    };

    // Bytes that are not text in the file's encoding mean the whole file was read in the wrong one: none is sent,
    // --skip-invalid or not.
    const undecodable = input.undecodable();
    if (undecodable) {
      plan.results.replaceStatus('pending', dryRun ? 'valid' : 'not-sent');
      await finish(Date.now() - started, false);
      const { problem, hint } = undecodableMessage(undecodable, `--file ${input.name}`, input.format === 'csv');
      throw new UsageError(`${problem}; nothing was sent.`, { issues: plan.issues, hint });
    }
    if (plan.issues.length > 0 && !options.skipInvalid) {
      plan.results.replaceStatus('pending', dryRun ? 'valid' : 'not-sent');
      // The error lists the problems; the report and --json still account for every record.
      await finish(Date.now() - started, false);
      const invalid = plan.results.count('invalid');
      throw new UsageError(
        `${ofRecords(invalid, plan.results.length, 'is invalid', 'are invalid')}; nothing was sent.`,
        {
          issues: plan.issues,
          hint:
            'Fix them, or pass --skip-invalid to send the valid records and report the others.' +
            (plan.heldForDates > 0
              ? ` ${counted(plan.heldForDates, 'record is', 'records are')} held back for ${plan.heldForDates === 1 ? 'its' : 'their'} dates alone: --allow-expired sends them.`
              : '') +
            (plan.issues.length > listedIssues ? ` --report FILE lists all ${plan.issues.length} problems.` : ''),
        },
      );
    }
    announce(plan, options, session, journal?.shown, numbered);
    let outcome: SendOutcome = { interrupted: false };
    /** Time spent waiting for the merchant's answer to the question: not the run's. */
    let answering = 0;
    if (dryRun) plan.results.replaceStatus('pending', 'valid');
    else if (writer && plan.toSend > 0 && !context.signal?.aborted) {
      const asked = Date.now();
      await confirm(kind, plan.toSend, options, session, context);
      answering = Date.now() - asked;
      const run = {
        kind,
        options,
        session,
        context,
        journal: writer,
        journalShown: journal?.shown ?? writer.path,
        sending,
        onSending: () => (startedSending = true),
      };
      outcome = await send(run, plan);
      // Its last entries (created, failed) are written by the close: one that fails is told, not swallowed.
      await writer.close().catch((error: unknown) => {
        outcome.journalError ??= error instanceof Error ? error : new Error(String(error));
      });
    }
    plan.results.replaceStatus('pending', 'not-sent');
    await finish(Date.now() - started - answering);

    if (outcome.journalError) {
      throw new PartialFailureError(`Sending stopped: ${outcome.journalError.message}.`, {
        hint: 'Free the disk or fix the journal path, then run the same command again to resume.',
      });
    }
    if (outcome.authError) throw outcome.authError;
    if (outcome.interrupted || context.signal?.aborted) {
      throw interruptedBy(
        context.signal,
        'Interrupted: the requests in flight were finished; run the same command to resume.',
      );
    }
    if (outcome.serviceDown) {
      const notSent = plan.results.count('not-sent');
      throw new ServiceUnavailableError(
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
    if (dryRun && unfinished.length > 0) {
      // Invalid records with --skip-invalid, or records a journal holds back: it answers as the real run would
      // (exit 6), in its own words.
      throw new PartialFailureError(`Dry run: ${skippedLine(unfinished, plan.results.length)}; nothing was sent.`, {
        hint: whatNext(unfinished),
      });
    }
    if (unfinished.length > 0) {
      throw new PartialFailureError(`${notCreatedLine(unfinished, plan.results.length)}.`, {
        hint: whatNext(unfinished),
      });
    }
  } finally {
    if (context.interrupt) context.interrupt.lastWords = undefined;
    if (startedSending) await writer?.close().catch(() => undefined);
    else await writer?.discard();
    await release?.();
  }
}

/** Error codes of a disk that cannot take more: full, or over the user's quota. */
const diskFullCodes = new Set(['ENOSPC', 'EDQUOT']);

/**
 * Turns a full disk met before any request into what happened, naming the file; other errors pass unchanged. The
 * error is found along its causes (the journal's errors wrap the system's).
 */
function unwritable(file: string): (error: unknown) => never {
  return (error) => {
    for (let cause = error; cause instanceof Error; cause = cause.cause) {
      const code = (cause as NodeJS.ErrnoException).code;
      if (code !== undefined && diskFullCodes.has(code)) {
        throw new FileWriteError(`Cannot write ${file}: the disk is full (${code}); nothing was sent.`, {
          hint: 'Free some space on that disk (or give --journal a path on another), then run the same command again.',
          cause: error,
        });
      }
    }
    throw error;
  };
}

/**
 * A file refused as it was read (a sheet's header, JSON that does not parse) whose bytes were not text in the
 * encoding it was read in: the encoding is the cause to tell, not what it garbled.
 */
function readInTheWrongEncoding(input: ManyInvoices): (error: unknown) => never {
  return (error) => {
    const undecodable = error instanceof UsageError ? input.undecodable() : undefined;
    if (!undecodable) throw error;
    const { problem, hint } = undecodableMessage(undecodable, `--file ${input.name}`, input.format === 'csv');
    throw new UsageError(`${problem}; nothing was sent.`, { hint });
  };
}

/** The records of the input, and how their issues are placed (CSV: by row and column). */
async function recordsOf(
  input: ManyInvoices,
  options: BulkCreateOptions,
): Promise<{ records: AsyncIterable<SourceRecord[]>; place?: IssuePlace }> {
  if (input.format !== 'csv') return { records: readRecords(input.open(), input.format, input.name) };
  const { readCsvRecords } = await import('../../bulk/csv-records.js');
  return readCsvRecords(input.open(), {
    name: input.name,
    delimiter: options.delimiter,
    dateFormat: options.dateFormat,
    ignoreColumns: options.ignoreColumn,
  });
}

/** What one bulk run sends with. */
interface BulkRun {
  kind: InvoiceKind;
  options: BulkCreateOptions;
  session: Session;
  context: CommandContext;
  /** The journal, holding this run's plan. */
  journal: JournalWriter;
  /** The journal's path as messages name it. */
  journalShown: string;
  /** Kept up to date with the records whose request may be out. */
  sending: Set<number>;
  /** Called once the token is read and the run is about to send. */
  onSending(): void;
}

/** Opens the service, then sends the planned records with a progress display. */
async function send(run: BulkRun, plan: Plan): Promise<SendOutcome> {
  const { options, session, context, journal } = run;
  const service = await session.connect();
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
  const progress = options.quiet
    ? undefined
    : startProgress({ stream: context.stderr, animate: session.terminal.animate, total: plan.toSend, counters });
  try {
    // The run's instant for relative dates and its plan must survive any crash: a rerun resumes from them.
    await journal.durable().catch(unwritable(run.journalShown));
    return await sendRecords({
      kind: run.kind,
      client: service.client,
      journal,
      entries: entriesToSend(journal, plan),
      results: plan.results,
      concurrency: options.concurrency ?? bulkDefaults.concurrency,
      rate: options.rate,
      retries: options.retries ?? bulkDefaults.retries,
      maxRetryAfterMs: (options.maxRetryAfter ?? defaultMaxRetryAfterSeconds) * 1000,
      stopAfterFailures: options.stopAfterFailures ?? bulkDefaults.stopAfterFailures,
      signal: context.signal,
      progress: counters,
      sending: run.sending,
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

/** Says, before sending, what a rerun skips and which records are not sent. */
function announce(
  plan: Plan,
  options: BulkCreateOptions,
  session: Session,
  journal: string | undefined,
  numbered: Numbered,
): void {
  const { terminal } = session;
  const { resume } = plan;
  if (resume && !options.quiet) {
    // A dry run sends nothing and resumes nothing: it tells what the real run would do with the journal.
    terminal.info(
      `${options.dryRun ? 'A real run would resume' : 'Resuming'} from ${journal}: ${formatCount(resume.done)} ` +
        `already created, ${formatCount(resume.retry)} to send again, ${formatCount(resume.heldUncertain)} ` +
        `uncertain (not sent again), ${formatCount(resume.new)} new, ${formatCount(resume.changed)} changed.`,
    );
  }
  const duplicates = plan.results.withStatus('duplicate');
  if (duplicates.length > 0) {
    const some = duplicates
      .slice(0, 5)
      .map((result) =>
        numbered === 'row'
          ? `row ${result.line} (as row ${result.duplicateOfLine})`
          : `record ${result.record} (as record ${result.duplicateOf})`,
      );
    terminal.warn(
      `${duplicates.length === 1 ? '1 record repeats' : `${formatCount(duplicates.length)} records repeat`} an ` +
        `earlier record's businessReference, amount and sendingDate and ${duplicates.length === 1 ? 'is' : 'are'} ` +
        `not sent: ${some.join(', ')}${duplicates.length > 5 ? ', ...' : ''}.`,
    );
  }
  if (plan.dateWarnings.length > 0) {
    const count = plan.dateWarnings.length;
    const records = plan.recordsWithDateWarnings;
    const lines = plan.dateWarnings.slice(0, listedIssues).map((warning) => `  ${terminalSafe(warning)}`);
    if (count > listedIssues) lines.push(`  ...and ${formatCount(count - listedIssues)} more`);
    terminal.warn(
      `${counted(records, 'record has', 'records have')} ${counted(count, 'date', 'dates')} to look at; ` +
        `they are sent (--allow-expired):\n${lines.join('\n')}`,
    );
  }
  if (plan.valuesToLookAt.length > 0) {
    const count = plan.valuesToLookAt.length;
    const lines = plan.valuesToLookAt.slice(0, listedIssues).map((warning) => `  ${terminalSafe(warning)}`);
    if (count > listedIssues) lines.push(`  ...and ${formatCount(count - listedIssues)} more`);
    terminal.warn(
      `${counted(plan.recordsWithValuesToLookAt, 'record has', 'records have')} ${counted(count, 'value', 'values')} ` +
        `to look at; the spec gives them no format, so they are sent as given:\n${lines.join('\n')}`,
    );
  }
  if (plan.issues.length > 0) {
    // A record that is not JSON is quoted in its issue: the file's text, printed without escapes.
    const lines = plan.issues
      .slice(0, listedIssues)
      .map((issue) => `  ${terminalSafe(issue.path)}: ${terminalSafe(issue.message)}`);
    if (plan.issues.length > listedIssues) {
      lines.push(`  ...and ${plan.issues.length - listedIssues} more (--report FILE lists them all)`);
    }
    terminal.warn(`Invalid records are skipped (--skip-invalid):\n${lines.join('\n')}`);
  }
}

async function confirm(
  kind: InvoiceKind,
  count: number,
  options: BulkCreateOptions,
  session: Session,
  context: CommandContext,
): Promise<void> {
  if (!session.terminal.interactive || options.yes) return;
  const { confirmAction } = await import('../../input/prompts.js');
  if (context.interrupt) context.interrupt.asking = true;
  try {
    if (!(await confirmAction(`Create ${countOf(count, `${kind} invoice`)} in ${session.profile.name}?`, context))) {
      throw new InterruptedError('Cancelled: nothing was sent.');
    }
  } finally {
    if (context.interrupt) context.interrupt.asking = false;
  }
}

/** What the merchant can do about the records that were not created. */
function whatNext(unfinished: RecordResult[]): string {
  const has = (status: RecordResult['status']) => unfinished.some((result) => result.status === status);
  return [
    has('failed') || has('not-sent') ? 'Run the same command again to send the failed ones.' : undefined,
    // An uncertain record with a businessReference is sent again by a rerun, and the service refuses a duplicate of
    // it (rule 2.3); only one without a reference needs looking up first.
    unfinished.some((result) => result.status === 'uncertain' && result.businessReference !== undefined)
      ? 'Run the same command again for the uncertain ones with a businessReference: the service refuses a duplicate of them.'
      : undefined,
    unfinished.some((result) => result.status === 'uncertain' && result.businessReference === undefined)
      ? 'Look up the uncertain ones without a businessReference in the service; --resend-uncertain sends them again (a duplicate if they exist).'
      : undefined,
    has('invalid') ? 'Fix the invalid ones and run the same command again.' : undefined,
    has('changed')
      ? 'Edited records were not sent again: their earlier version was sent (the list says which exist). To create ' +
        'the new version as another invoice, give it a new businessReference, or run with a new --journal.'
      : undefined,
  ]
    .filter(Boolean)
    .join(' ');
}

/** "1 record has", "2 records have": the count and the words that agree with it. */
function counted(count: number, one: string, many: string): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/** "1 of 3 records is invalid", "2 of 3 records are invalid", "1 record is invalid" (of 1): the verb agrees. */
function ofRecords(count: number, total: number, one: string, many: string): string {
  const verb = count === 1 ? one : many;
  return total === 1
    ? `${formatCount(count)} record ${verb}`
    : `${formatCount(count)} of ${formatCount(total)} records ${verb}`;
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
function notCreatedLine(unfinished: RecordResult[], total: number): string {
  const uncertain = unfinished.filter((result) => result.status === 'uncertain').length;
  const changed = unfinished.filter((result) => result.status === 'changed').length;
  // An edited record whose earlier version was sent is not "not created": that version may exist, or does.
  if (changed === unfinished.length) {
    return ofRecords(
      changed,
      total,
      'was edited after an earlier run sent it',
      'were edited after an earlier run sent them',
    );
  }
  const notCreated = unfinished.length - uncertain;
  const unknown = (count: number) => `may have been created: ${count === 1 ? 'its' : 'their'} outcome is unknown`;
  if (uncertain === 0) return ofRecords(notCreated, total, 'was not created', 'were not created');
  if (notCreated === 0) return ofRecords(uncertain, total, unknown(uncertain), unknown(uncertain));
  return `${ofRecords(notCreated, total, 'was not created', 'were not created')}, and ${formatCount(uncertain)} ${unknown(uncertain)}`;
}
