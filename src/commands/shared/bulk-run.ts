import { dirname, resolve } from 'node:path';
import {
  journalFor,
  planBulk,
  startProgress,
  targetOf,
  type BulkKind,
  type BulkRequest,
  type KindWords,
  type LedgerLookup,
  type Numbered,
  type Plan,
  type RecordResult,
  type SendOutcome,
  type Shard,
  WrongEncodingError,
} from '../../bulk/index.js';
import type { ManyInvoices } from '../../sheet/index.js';
import { openBulkLedger } from './bulk-ledger.js';
import { counted, ofRecords, RunEnd, withoutReferenceWarning } from './bulk-end.js';
import type { CommandContext } from '../../context.js';
import { UsageError, type FieldIssue } from '../../errors.js';
import { refusedForItsEncoding, withSecondLook } from './bulk-encoding.js';
import { formatCount } from '../../schemas/number-text.js';
import { writeProblem } from '../../input/json-file.js';
import { checkWritable, makePrivateFolder } from '../../private-file.js';
import type { Session } from '../../session.js';
import { listedIssues } from '../../output/errors.js';
import { terminalSafe } from '../../output/safe-text.js';
import { visible } from '../../schemas/visible-text.js';
import { groupedFindings } from '../../output/findings.js';

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
  /** The kind of record, asking the merchant's ledger what it needs (absent when the ledger is off). */
  kind(ledger: LedgerLookup | undefined): BulkKind;
  /** Said once the plan is known, before anything is decided (fields dropped, ...). */
  afterPlan?(plan: Plan): void;
  /** Asks before sending (or checks what the run pins); throws to send nothing. */
  confirm(plan: Plan): Promise<void>;
  /** The merchant's word on records an earlier run sent without learning the outcome. */
  settle?: { done: readonly string[]; notDone: readonly string[] };
  /** What the merchant can do about the records the run left undone, in the kind's words. */
  whatNext(unfinished: readonly RecordResult[]): string;
}

/**
 * A run over a file of many records (`create --file`, `refund --file`): the engine plans and journals every record,
 * this command decides (refuses, tells, asks), the engine sends, and the run's end is told from its results.
 */
export async function runBulkCommand(
  command: BulkCommand,
  settings: BulkRunSettings,
  session: Session,
  input: ManyInvoices,
  context: CommandContext,
): Promise<void> {
  const started = Date.now();
  const { terminal, profile } = session;
  const { dryRun } = settings;
  // This command stops gracefully on the first Ctrl-C: it finishes the requests in flight and says where it stands.
  if (context.interrupt) context.interrupt.graceful = true;
  const report = await writableReport(settings.report, context);
  const target = targetOf(profile, context.env);
  const journal = journalFor({
    given: settings.journal,
    shard: settings.shard,
    input,
    cwd: context.cwd,
    dryRun,
    environment: target.environment,
  });
  const ledger = await openBulkLedger(session, settings, context, journal);
  try {
    // The kind checks each record with what the ledger holds from other journals (an invoice sent before).
    const kind = command.kind(ledger?.lookup());
    const request: BulkRequest = {
      kind,
      input,
      sheet: { ...settings.sheet, timeZone: profile.timeZone, dayRead: session.zone.dayRead },
      journal,
      target,
      shard: settings.shard,
      dryRun,
      resendUncertain: settings.resendUncertain,
      settle: command.settle,
      sending: settings.sending,
      // The sandbox's clock when the target is a sandbox whose clock was moved.
      now: await session.now(),
      signal: context.signal,
    };
    const run = await planBulk(request).catch(async (error: unknown) => {
      throw error instanceof WrongEncodingError ? await withSecondLook(request, error, error.found) : error;
    });
    // The merchant's word, journaled by the plan, is the ledger's too.
    if (command.settle) await ledger?.marked(kind.sending.name, run.settled.marks, command.settle, run.settled.unknown);
    /** Time spent waiting for the merchant's answer to the question: not the run's. */
    let answeringMs = 0;
    let outcome: SendOutcome = { interrupted: false };
    const { plan } = run;
    let end: RunEnd;
    // From here the planned run is closed whatever happens: its plan taken back if nothing was sent, its lock let go.
    try {
      // Told once the plan is done (a run whose planning fails does not tell them; its rerun does, as they remain),
      // at the terminal and in GitHub's output alike.
      const runWarnings = [
        session.zone.take(),
        run.damagedLines > 0
          ? `${counted(run.damagedLines, 'damaged line', 'damaged lines')} of the journal ${journal?.shown} ${run.damagedLines === 1 ? 'was' : 'were'} ignored.`
          : undefined,
        run.settled.unknown.length > 0 ? nothingToSettle(run.settled.unknown, kind.words, input) : undefined,
      ].filter((warning) => warning !== undefined);
      for (const warning of runWarnings) terminal.warn(warning);
      const { done, notDone } = run.settled;
      if (done + notDone > 0) terminal.info(settledLine(done, notDone, dryRun, kind.words));
      end = new RunEnd(
        {
          plan,
          kind: kind.sending.name,
          words: kind.words,
          input,
          // A spreadsheet's records are named by its row numbers.
          numbered: input.format === 'csv' || input.format === 'xlsx' ? 'row' : 'line',
          started,
          environment: profile.name,
          dryRun,
          // Named once a run has sent: one refused, or with nothing to send, leaves the journal as it was.
          journal: () => (run.journalKept() ? journal?.shown : undefined),
          shard: settings.shard ? `${settings.shard.index}/${settings.shard.count}` : undefined,
          report,
          whatNext: command.whatNext,
          sending: run.sending,
          warnings: runWarnings,
        },
        session,
        context,
      );
      ledger?.planned(plan, kind.sending.name);
      const ledgerNote = ledger?.planNote(plan, kind.words.record);
      const deciding = {
        settings,
        session,
        request,
        context,
        end,
        journal: journal?.shown,
        words: kind.words,
        ledgerNote,
      };
      if (await decide(plan, command, deciding)) {
        const asked = Date.now();
        await asking(context, () => command.confirm(plan)).catch(tellingRefusal(plan, end, dryRun));
        answeringMs = Date.now() - asked;
        outcome = await run.send({
          connect: async () => {
            const service = await session.connect();
            return { client: service.client, close: () => service.close() };
          },
          progress: (total, counters) =>
            settings.quiet
              ? undefined
              : startProgress({ stream: context.stderr, animate: terminal.animate, total, counters }),
          settled: ledger && ((entry, settled) => ledger.settled(entry, settled)),
        });
      }
    } finally {
      await run.close();
    }
    await ledger?.finish();
    plan.results.replaceStatus('pending', 'not-sent');
    await end.tell(Date.now() - started - answeringMs);
    const notDone = end.notDone(outcome);
    if (notDone) throw notDone;
  } finally {
    if (context.interrupt) context.interrupt.lastWords = undefined;
    await ledger?.finish();
  }
}

/**
 * `--report`, resolved: one that cannot be written is refused now, not found out after the records are sent; its
 * folder is made as the journal's is (the user's alone: it names customers' references).
 */
async function writableReport(
  given: string | undefined,
  context: CommandContext,
): Promise<{ path: string; given: string } | undefined> {
  if (given === undefined) return undefined;
  const path = resolve(context.cwd, given);
  await makePrivateFolder(dirname(path)).catch(() => undefined);
  await checkWritable(path).catch((error: unknown) => {
    throw new UsageError(`Cannot write --report ${given}: ${writeProblem(error)}; nothing was sent.`);
  });
  return { path, given };
}

/** The merchant's word on records sent before, as the run took it: "... as you said: 1 refunded, 2 not refunded (sent again)." */
function settledLine(done: number, notDone: number, dryRun: boolean, words: KindWords): string {
  const made = words.done;
  const parts = [
    done > 0 ? `${formatCount(done)} ${made}` : undefined,
    notDone > 0
      ? `${formatCount(notDone)} not ${made} (${dryRun ? `and send ${notDone === 1 ? 'it' : 'them'} again` : 'sent again'})`
      : undefined,
  ].filter((part) => part !== undefined);
  return `${dryRun ? 'A real run would mark, as you said' : 'Marked in the journal, as you said'}: ${parts.join(', ')}.`;
}

/** The names the merchant's word gave that no record the journal holds as sent has: nothing was settled for them. */
function nothingToSettle(unknown: readonly string[], words: KindWords, input: ManyInvoices): string {
  const one = unknown.length === 1;
  if (words.markedBy === 'invoice') {
    return `${unknown.join(', ')}: the journal holds no ${words.record} of ${one ? 'that invoice' : 'those invoices'} that was sent; nothing to settle there.`;
  }
  const row = input.format === 'csv' || input.format === 'xlsx' ? 'row' : 'line';
  return `${row} ${unknown.join(', ')}: the journal holds no record of ${one ? `that ${row}` : `those ${row}s`} that was sent; nothing to settle.`;
}

/**
 * A command's refusal after the plan (a pinned count that differs, no way to ask): the end is told as for invalid
 * records, every record accounted for (--json, --report, GitHub's output), then the refusal is thrown on.
 */
function tellingRefusal(plan: Plan, end: RunEnd, dryRun: boolean): (error: unknown) => Promise<never> {
  return async (error) => {
    if (error instanceof UsageError) {
      plan.results.replaceStatus('pending', dryRun ? 'valid' : 'not-sent');
      await end.refused(error.hint ?? '');
    }
    throw error;
  };
}

/** Asks the merchant with the interrupt told that nothing is in flight: a Ctrl-C ends the question. */
async function asking(context: CommandContext, ask: () => Promise<void>): Promise<void> {
  if (context.interrupt) context.interrupt.asking = true;
  try {
    await ask();
  } finally {
    if (context.interrupt) context.interrupt.asking = false;
  }
}

/** What the decision after the plan works with. */
interface Deciding {
  settings: BulkRunSettings;
  session: Session;
  /** What the run was asked to do: its file, its kind. */
  request: BulkRequest;
  context: CommandContext;
  end: RunEnd;
  /** The journal as messages name it. */
  journal: string | undefined;
  /** How the run's kind speaks of its records. */
  words: KindWords;
  /** What the ledger says of the plan (refunds of invoices sent elsewhere). */
  ledgerNote: string | undefined;
}

/**
 * After the plan: refuses what must not be sent (its end told, every record accounted for), tells the warnings and
 * announces the run. Resolves true when there is something to send and the command may ask.
 */
async function decide(plan: Plan, command: BulkCommand, deciding: Deciding): Promise<boolean> {
  const { settings, session, context, end } = deciding;
  const { input } = deciding.request;
  const { terminal } = session;
  const { dryRun } = settings;
  const { words } = deciding;
  const { reference } = words;
  try {
    command.afterPlan?.(plan);
  } catch (error) {
    return tellingRefusal(plan, end, dryRun)(error);
  }
  if (deciding.ledgerNote && (plan.issues.length === 0 || settings.skipInvalid)) terminal.info(deciding.ledgerNote);
  if (plan.results.length === 0) {
    terminal.warn(`--file ${input.name} holds no ${words.records}: nothing to send.`);
  }
  // Every warning of every record is told first, whether or not the run goes on: a dry run shows them all at once.
  tellWarnings(plan, terminal);
  // Bytes that are not text in the file's encoding mean the whole file was read in the wrong one: none is sent,
  // --skip-invalid or not.
  const undecodable = input.undecodable();
  if (undecodable) {
    plan.results.replaceStatus('pending', dryRun ? 'valid' : 'not-sent');
    const refusal = await refusedForItsEncoding(deciding.request, undecodable, plan.issues);
    await end.refused(refusal.hint ?? '');
    throw refusal;
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
      issues.length > listedIssues ? `--report FILE lists all ${formatCount(plan.issues.length)} problems.` : undefined,
    ]
      .filter(Boolean)
      .join(' ');
    // The error lists the problems; the report and --json still account for every record.
    await end.refused(hint);
    const invalid = plan.results.count('invalid');
    throw new UsageError(`${ofRecords(invalid, plan.results.length, 'is invalid', 'are invalid')}; nothing was sent.`, {
      issues,
      hint,
    });
  }
  announce(plan, settings, session, deciding.journal, end.numbered, words);
  if (dryRun) {
    plan.results.replaceStatus('pending', 'valid');
    return false;
  }
  return deciding.journal !== undefined && plan.toSend > 0 && !context.signal?.aborted;
}

/** Says, before sending, what a rerun skips and which records are not sent. */
function announce(
  plan: Plan,
  settings: BulkRunSettings,
  session: Session,
  journal: string | undefined,
  numbered: Numbered,
  words: KindWords,
): void {
  const { terminal } = session;
  const { resume } = plan;
  if (resume && !settings.quiet) {
    // A dry run sends nothing and resumes nothing: it tells what the real run would do with the journal.
    terminal.info(
      `${settings.dryRun ? 'A real run would resume' : 'Resuming'} from ${journal}: ${formatCount(resume.done)} ` +
        `already ${words.done}, ${formatCount(resume.retry)} to send again, ${formatCount(resume.heldUncertain)} ` +
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
  // What customers will read, for a person to see the file was read in its own encoding (Arabic as typed).
  if (settings.dryRun && plan.names.length > 0) {
    const names = plan.names.map((name) => `"${terminalSafe(visible(name))}"`).join(', ');
    const of = plan.names.length === plan.toSend ? '' : ` (of the ${formatCount(plan.toSend)} records to send)`;
    terminal.info(`Names as they will be sent: ${names}${of}.`);
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
