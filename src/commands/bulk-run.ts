import { writeSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import {
  journalFor,
  runBulk,
  startProgress,
  summarize,
  targetOf,
  unfinishedStatuses,
  writeJsonReport,
  writeReport,
  type BulkKind,
  type BulkRequest,
  type ManyInvoices,
  type Numbered,
  type Plan,
  type RecordKindName,
  type RecordResult,
  type SendOutcome,
  type Shard,
} from '../bulk/index.js';
import { openBulkLedger } from './bulk-ledger.js';
import { renderSummary } from '../output/bulk-summary.js';
import { inGithubActions } from '../output/github-actions.js';
import type { CommandContext } from '../context.js';
import { interruptedBy, PartialFailureError, ServiceUnavailableError, UsageError } from '../errors.js';
import { undecodableMessage } from '../input/text-encoding.js';
import { formatCount } from '../schemas/number-text.js';
import { writeProblem } from '../input/json-file.js';
import { checkWritable } from '../private-file.js';
import type { Session } from '../session.js';
import { listedIssues } from '../output/errors.js';
import { terminalSafe } from '../output/safe-text.js';
import { groupedFindings } from '../output/findings.js';
import type { FieldIssue } from '../errors.js';
/** A run over a file as its command's flags ask for it, the defaults applied (`bulkRunOf()`). */
export interface BulkRunSettings {
  dryRun: boolean;
  /** Where the report goes, as the merchant named it (`--report`). */
  report?: string;
  /** The journal the merchant named (`--journal`), as given. */
  journal?: string;
  shard?: Shard;
  sheet: Omit<BulkRequest['sheet'], 'timeZone'>;
  resendUncertain: boolean;
  sending: BulkRequest['sending'];
  /** No progress display and no note on resuming. */
  quiet: boolean;
  /** Send the valid records and report the invalid ones. */
  skipInvalid: boolean;
  /** False with `--no-ledger`: the run records nothing in the merchant's ledger. */
  ledger: boolean;
}

/** What differs between the commands that run over a file: the kind of record, and what they say and ask. */
export interface BulkCommand {
  kind: BulkKind;
  /** Said once the plan is known, before anything is decided (fields dropped, ...). */
  afterPlan?(plan: Plan): void;
  /** Asks before sending (or checks what the run pins); throws to send nothing. */
  confirm(plan: Plan): Promise<void>;
  /** The merchant's word on records an earlier run sent without learning the outcome. */
  settle?: { done: readonly string[]; notDone: readonly string[] };
  /** What the merchant can do about the records the run left undone, in the kind's words. */
  whatNext(unfinished: readonly RecordResult[]): string;
  /** Hold back what has a warning (the run's `--strict`, else the profile's). */
  strict?: boolean;
}

/**
 * A run over a file of many records (`create --file`, `refund --file`): plan and validate every record, then send
 * them with a pool of workers, journaling each step so that running the same command again resumes.
 */
export async function runBulkCommand(
  command: BulkCommand,
  settings: BulkRunSettings,
  session: Session,
  input: ManyInvoices,
  context: CommandContext,
): Promise<void> {
  const kind = command.kind.sending.name;
  const started = Date.now();
  const { terminal, profile } = session;
  // This command stops gracefully on the first Ctrl-C: it finishes the requests in flight and says where it stands.
  if (context.interrupt) context.interrupt.graceful = true;
  const reportPath = settings.report === undefined ? undefined : resolve(context.cwd, settings.report);
  // A report that cannot be written is refused now, not found out after the invoices are created; its folder is
  // made as the journal's is (the user's alone: it names customers' references).
  if (reportPath) {
    await mkdir(dirname(reportPath), { recursive: true, mode: 0o700 }).catch(() => undefined);
    await checkWritable(reportPath).catch((error: unknown) => {
      throw new UsageError(`Cannot write --report ${settings.report}: ${writeProblem(error)}; nothing was sent.`);
    });
  }
  const { dryRun } = settings;
  const target = targetOf(profile, context.env);
  const journal = journalFor({
    given: settings.journal,
    shard: settings.shard,
    input,
    cwd: context.cwd,
    dryRun,
    environment: target.environment,
  });
  const ledger = await openBulkLedger(
    session,
    { ledger: settings.ledger, dryRun },
    context,
    kind,
    journal,
    command.settle,
  );
  const shard = settings.shard ? `${settings.shard.index}/${settings.shard.count}` : undefined;
  // A spreadsheet's records are named by its row numbers.
  const numbered: Numbered = input.format === 'csv' || input.format === 'xlsx' ? 'row' : 'line';
  /** Time spent waiting for the merchant's answer to the question: not the run's. */
  let answering = 0;
  /** What the run says once it ends, set once its plan is known. */
  let finish: (durationMs: number, refused?: { next: string }) => Promise<void> = () => Promise.resolve();

  try {
    const { plan, outcome } = await runBulk(
      {
        kind: ledger ? ledger.withLedgerChecks(command.kind, command.strict ?? profile.strict) : command.kind,
        input,
        sheet: { ...settings.sheet, timeZone: profile.timeZone },
        journal,
        target,
        shard: settings.shard,
        dryRun,
        resendUncertain: settings.resendUncertain,
        settle: command.settle,
        sending: settings.sending,
        signal: context.signal,
      },
      {
        // The sandbox's clock when the target is a sandbox whose clock was moved.
        now: () => session.now(),
        unsettled: (numbers) =>
          terminal.warn(
            `${numbers.join(', ')}: no record of the journal is uncertain for ${numbers.length === 1 ? 'that invoice' : 'those invoices'}; nothing to settle.`,
          ),
        journalRead: (earlier) => {
          if (earlier.damagedLines > 0) {
            terminal.warn(`${earlier.damagedLines} damaged lines of the journal ${journal?.shown} were ignored.`);
          }
        },
        planned: async (plan, run) => {
          ledger?.planned(plan);
          finish = finishing(plan, run.journalKept, run.sending);
          return decide(plan);
        },
        connect: async () => {
          const service = await session.connect();
          return { client: service.client, close: () => service.close() };
        },
        progress: (total, counters) =>
          settings.quiet
            ? undefined
            : startProgress({ stream: context.stderr, animate: terminal.animate, total, counters }),
        settled: ledger && ((entry, outcome) => ledger.settled(entry, outcome)),
      },
    );
    await ledger?.finish();
    plan.results.replaceStatus('pending', 'not-sent');
    await finish(Date.now() - started - answering);
    throwWhatIsNotDone(plan, outcome);
  } finally {
    if (context.interrupt) context.interrupt.lastWords = undefined;
    await ledger?.finish();
  }

  /** Sets up what the run says once its plan is known: the summary, the report, --json and GitHub's output. */
  function finishing(plan: Plan, journalKept: () => boolean, sending: ReadonlySet<number>) {
    const summaryOf = (durationMs: number) =>
      summarize(plan.results, {
        kind,
        environment: profile.name,
        dryRun,
        durationMs,
        // Named once a run has sent: one refused, or with nothing to send, leaves the journal as it was.
        journal: journalKept() ? journal?.shown : undefined,
        shard,
        resume: plan.resume,
        alreadyExpired: plan.alreadyExpired,
        withoutReference: plan.withoutReference,
        // Records repeat one another only by a reference (rule 2.3.2): a refund has none.
        duplicates: command.kind.referenceField !== undefined,
      });
    // Records whose request may be out: a second Ctrl-C tells them as uncertain, as the journal does.
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
        // The process ends as soon as this returns: the document goes to stdout at once, never left waiting for a
        // pipe to drain (which cut it short on Node 22).
        const out = context.stdout === process.stdout ? { write: writeToStdoutNow } : context.stdout;
        void writeJsonReport(out as NodeJS.WritableStream, summaryOf(Date.now() - started), plan.results, numbered);
      };
    }
    // A refused run shows no summary: its error lists the problems, and says what to do next.
    return async (durationMs: number, refused?: { next: string }) => {
      const summary = summaryOf(durationMs);
      if (!refused) terminal.info(renderSummary(summary, plan.results, terminal.err, numbered));
      if (reportPath) {
        const suite = { input: input.name, kind, durationMs, timestamp: new Date(started) };
        await writeReport(reportPath, plan.results, numbered, suite).catch((error: unknown) => {
          throw new PartialFailureError(
            `The report could not be written to ${settings.report}: ${writeProblem(error)}. The summary above says ` +
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
        const { reportToGithub } = await import('./bulk-github.js');
        const unfinished = plan.results.withStatus(...unfinishedStatuses);
        const next = refused?.next ?? (unfinished.length > 0 ? command.whatNext(unfinished) : undefined);
        const runWarnings = plan.withoutReference > 0 ? [withoutReferenceWarning(plan.withoutReference)] : [];
        await reportToGithub({ summary, results: plan.results, numbered, input, next, runWarnings }, context);
      }
    };
  }

  /** After the plan: refuses what must not be sent (telling every record), announces the run and asks. */
  async function decide(plan: Plan): Promise<boolean> {
    const reference = command.kind.referenceField;
    command.afterPlan?.(plan);
    if (plan.results.length === 0) {
      terminal.warn(
        `--file ${input.name} holds no ${kind === 'refund' ? 'refunds' : 'invoice records'}: nothing to send.`,
      );
    }
    // Every warning of every record is told first, whether or not the run goes on: a dry run shows them all at once.
    tellWarnings(plan, terminal);
    // Bytes that are not text in the file's encoding mean the whole file was read in the wrong one: none is sent,
    // --skip-invalid or not.
    const undecodable = input.undecodable();
    if (undecodable) {
      plan.results.replaceStatus('pending', dryRun ? 'valid' : 'not-sent');
      const { problem, hint } = undecodableMessage(undecodable, `--file ${input.name}`, input.format === 'csv');
      await finish(Date.now() - started, { next: hint });
      throw new UsageError(`${problem}; nothing was sent.`, { issues: groupedFindings(plan.issues), hint });
    }
    if (plan.issues.length > 0 && !settings.skipInvalid) {
      plan.results.replaceStatus('pending', dryRun ? 'valid' : 'not-sent');
      const issues = groupedFindings(plan.issues);
      const hint = [
        'Fix them and run the same command again, or pass --skip-invalid (skip-invalid: true in the GitHub Action) ' +
          'to send the valid records and report the others.',
        plan.heldForDates > 0
          ? `${counted(plan.heldForDates, 'record is', 'records are')} held back for ${plan.heldForDates === 1 ? 'its' : 'their'} dates alone: ` +
            `fix ${plan.heldForDates === 1 ? 'it' : 'them'} first (an expiry ahead, after the sending and release dates); ` +
            `only as an exception, --allow-expired sends ${plan.heldForDates === 1 ? 'it as it is' : 'them as they are'}.`
          : undefined,
        plan.heldForWarnings > 0
          ? `${counted(plan.heldForWarnings, 'record is', 'records are')} held back for ${plan.heldForWarnings === 1 ? 'its' : 'their'} warnings (strict): ` +
            'correct the values' +
            (reference !== undefined && plan.issues.some((issue) => issue.field?.includes(reference))
              ? `, give the records without a ${reference} one (--reference-prefix)`
              : '') +
            ', or pass --no-strict to send them with their warnings.'
          : undefined,
        issues.length > listedIssues
          ? `--report FILE lists all ${formatCount(plan.issues.length)} problems.`
          : undefined,
      ]
        .filter(Boolean)
        .join(' ');
      // The error lists the problems; the report and --json still account for every record.
      await finish(Date.now() - started, { next: hint });
      const invalid = plan.results.count('invalid');
      throw new UsageError(
        `${ofRecords(invalid, plan.results.length, 'is invalid', 'are invalid')}; nothing was sent.`,
        {
          issues,
          hint,
        },
      );
    }
    announce(plan, settings, session, journal?.shown, numbered, kind);
    if (dryRun) {
      plan.results.replaceStatus('pending', 'valid');
      return false;
    }
    if (!journal || plan.toSend === 0 || context.signal?.aborted) return false;
    const asked = Date.now();
    if (context.interrupt) context.interrupt.asking = true;
    try {
      await command.confirm(plan);
    } finally {
      if (context.interrupt) context.interrupt.asking = false;
    }
    answering = Date.now() - asked;
    return true;
  }

  /** The error that says what the run left undone, if it did. */
  function throwWhatIsNotDone(plan: Plan, outcome: SendOutcome): void {
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
        hint: command.whatNext(unfinished),
      });
    }
    if (unfinished.length > 0) {
      throw new PartialFailureError(`${notCreatedLine(unfinished, plan.results.length, kind)}.`, {
        hint: command.whatNext(unfinished),
      });
    }
  }
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

/** Says, before sending, what a rerun skips and which records are not sent. */
function announce(
  plan: Plan,
  settings: BulkRunSettings,
  session: Session,
  journal: string | undefined,
  numbered: Numbered,
  kind: RecordKindName,
): void {
  const { terminal } = session;
  const { resume } = plan;
  if (resume && !settings.quiet) {
    // A dry run sends nothing and resumes nothing: it tells what the real run would do with the journal.
    terminal.info(
      `${settings.dryRun ? 'A real run would resume' : 'Resuming'} from ${journal}: ${formatCount(resume.done)} ` +
        `already ${kind === 'refund' ? 'refunded' : 'created'}, ${formatCount(resume.retry)} to send again, ${formatCount(resume.heldUncertain)} ` +
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
  if (plan.issues.length > 0) {
    terminal.warn(`Invalid records are skipped (--skip-invalid):\n${listed(groupedFindings(plan.issues))}`);
  }
}

/**
 * The warnings of the records, the same cause on many records told once, and the records without a
 * businessReference, which a run of another journal would create again.
 */
function tellWarnings(plan: Plan, terminal: Session['terminal']): void {
  if (plan.warnings.length > 0) {
    terminal.warn(
      `${counted(plan.results.countWithWarnings(), 'record has', 'records have')} ${counted(plan.warnings.length, 'warning', 'warnings')} ` +
        `to look at:\n${listed(groupedFindings(plan.warnings))}`,
    );
  }
  if (plan.withoutReference > 0) terminal.warn(withoutReferenceWarning(plan.withoutReference));
}

/** The run's one warning about records without a businessReference. */
function withoutReferenceWarning(count: number): string {
  return (
    `${counted(count, 'record has', 'records have')} no businessReference: only this journal knows whether ` +
    `${count === 1 ? 'it was' : 'they were'} created, and a run from another journal (a new workflow run, another ` +
    'machine) would create them again. --reference-prefix gives each one a reference from its content.'
  );
}

/** Findings as indented lines, the first `listedIssues` of them; the text is the file's, printed without escapes. */
function listed(findings: readonly FieldIssue[]): string {
  const lines = findings
    .slice(0, listedIssues)
    .map((finding) => `  ${terminalSafe(finding.path)}: ${terminalSafe(finding.message)}`);
  if (findings.length > listedIssues) {
    lines.push(`  ...and ${formatCount(findings.length - listedIssues)} more (--report FILE lists them all)`);
  }
  return lines.join('\n');
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
function notCreatedLine(unfinished: RecordResult[], total: number, kind: RecordKindName): string {
  const made = kind === 'refund' ? 'made' : 'created';
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
  const unknown = (count: number) => `may have been ${made}: ${count === 1 ? 'its' : 'their'} outcome is unknown`;
  if (uncertain === 0) return ofRecords(notCreated, total, `was not ${made}`, `were not ${made}`);
  if (notCreated === 0) return ofRecords(uncertain, total, unknown(uncertain), unknown(uncertain));
  return `${ofRecords(notCreated, total, `was not ${made}`, `were not ${made}`)}, and ${formatCount(uncertain)} ${unknown(uncertain)}`;
}
