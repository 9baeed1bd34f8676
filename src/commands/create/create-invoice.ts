import { resolve } from 'node:path';
import { whenAsked, type CommandContext } from '../../context.js';
import { EinvoiceError, InterruptedError, UsageError, type FieldIssue } from '../../errors.js';
import {
  checkAmount,
  mergeInvoiceSources,
  settledAmount,
  withoutAmountEchoingItems,
} from '../../input/invoice-input.js';
import { invoiceFromFlags, toCommandLine, withSourceName } from '../../input/invoice-flags.js';
import { askForInvoice, canBeAsked } from '../../input/invoice-prompts.js';
import { asObject, writeProblem } from '../../input/json-file.js';
import { confirmAction, interruptible, promptContext } from '../../input/prompts.js';
import { countOf, formatAmount, toJson } from '../../output/format.js';
import { renderInvoicePreview, withCurrency } from '../../output/invoice-preview.js';
import { sendOnce } from '../../output/outcome.js';
import { dateProblems, wireDates } from '../../schemas/invoice-dates.js';
import { contactWarnings, withFixedMobile } from '../../schemas/contact-warnings.js';
import { withoutUnknownFields } from '../../schemas/unknown-fields.js';
import { normalizeDate, withDateForms } from '../../input/dates.js';
import { utcInstant } from '../../schemas/calendar.js';
import { calendarDateIn } from '../../schemas/time-zone.js';
import type { Terminal } from '../../output/terminal.js';
import type { Profile } from '../../config/profile.js';
import { invoiceSchemas, type Invoice, type InvoiceKind } from '../../schemas/invoice.js';
import { validate } from '../../schemas/validate.js';
import type { Session } from '../../session.js';
import { openDraft } from './draft.js';
import { amountChoiceOf, type CreateOptions } from './flags.js';
import { writePrivateFile } from '../../private-file.js';
import { sentAndRecorded, serviceOf, sourceOfOne, startRecording } from '../shared/ledger-recording.js';

type Raw = Record<string, unknown>;

/** What every step of creating one invoice works with. */
interface CreateRun {
  kind: InvoiceKind;
  options: CreateOptions;
  context: CommandContext;
  terminal: Terminal;
  profile: Profile;
  /** The instant relative dates resolve to. */
  now: Date;
  /** The days read on the merchant's calendar. */
  zone: Session['zone'];
  /** What the flags and the file gave, to name where a wrong value came from. */
  sources: { flags: Raw; file?: Raw };
}

/**
 * One invoice from profile defaults < file < flags < prompts: gather -> resolve the amount -> check and ask ->
 * settle the amount -> confirm -> send -> report. From the first prompt on, what the merchant typed is kept as a
 * draft, here only, when the run stops short of creating the invoice.
 */
export async function createOneInvoice(
  kind: InvoiceKind,
  options: CreateOptions,
  session: Session,
  file: unknown,
  context: CommandContext,
): Promise<void> {
  const run: CreateRun = {
    kind,
    options,
    context,
    terminal: session.terminal,
    profile: session.profile,
    now: await session.now(),
    zone: session.zone,
    sources: { flags: {} },
  };
  const draft = openDraft(kind, options, context, run.terminal, run.now);
  const gathered = gather(run, file);
  await session.zone.tell();
  const { raw, amountFromItems } = resolveAmount(gathered.raw);
  let typed: Raw | undefined;
  const keepTyped = (answers: Raw) => (typed = answers);
  try {
    const checked = await checkAndAsk(run, raw, gathered.flagIssues, keepTyped, amountFromItems);
    // A number typed at a prompt is fixed as one from the flags or the file is.
    if (checked.asked) checked.invoice = withMobileFixed(run, checked.invoice);
    if (typed) typed = checked.invoice;
    if (amountFromItems && !checked.asked) {
      run.terminal.info(
        run.terminal.err.dim(`Amount ${formatAmount(checked.invoice.amount)} is the total of the items.`),
      );
    }
    if (!run.terminal.interactive) refuseWhatIsLeft(run, checked.invoice);
    let invoice = await settleAmount(run, checked.invoice);
    const strict = run.options.strict ?? run.profile.strict;
    for (const value of contactWarnings(invoice)) {
      const named = withSourceName(value, run.sources);
      // Under --strict a value to look at is refused; a person at a terminal is warned and decides.
      if (strict && !run.terminal.interactive) continue;
      run.terminal.warn(`${named.path}: ${named.message}; sent as given.`);
    }
    invoice = await checkDates(run, invoice);
    if (typed) typed = invoice;
    if (await writeWithoutSending(run, invoice)) return;
    await confirm(run, invoice);
    const created = await send(run, session, invoice, checked.asked);
    await draft.done();
    report(run, invoice, created.invoiceNumber);
  } catch (error) {
    if (typed && error instanceof EinvoiceError) await draft.keep(typed);
    throw error;
  }
}

/** Gather: the profile's defaults, the file and the flags merged into one raw request. */
function gather(run: CreateRun, file: unknown): { raw: Raw; flagIssues: FieldIssue[] } {
  const { kind, options, profile, now } = run;
  const fromFlags = invoiceFromFlags(options);
  let fileObject = file === undefined ? undefined : asObject(file, `--file ${options.file}`);
  if (fileObject && options.dropUnknownFields) {
    const { value, dropped } = withoutUnknownFields(kind, fileObject);
    fileObject = value;
    if (dropped.length > 0) {
      run.terminal.warn(`Dropped ${countOf(dropped.length, 'field')} the spec does not list: ${dropped.join(', ')}.`);
    }
  }
  const raw = mergeInvoiceSources({
    kind,
    defaults: profile.defaults,
    file: fileObject,
    flags: fromFlags.invoice,
    now,
    timeZone: profile.timeZone,
    dayRead: run.zone.dayRead,
  });
  run.sources = { flags: fromFlags.invoice, file: fileObject };
  return { raw: withMobileFixed(run, raw), flagIssues: fromFlags.issues };
}

/** With --fix-mobiles, the mobile number as its warning suggests, the change told as a warning naming its source. */
function withMobileFixed<T extends Raw>(run: CreateRun, invoice: T): T {
  if (!run.options.fixMobiles) return invoice;
  const { invoice: fixed, fixed: change } = withFixedMobile(invoice);
  if (change) {
    const named = withSourceName(change, run.sources);
    run.terminal.warn(`${named.path}: ${named.message}.`);
  }
  return fixed;
}

/** Resolve the amount: with items and no amount, the amount is the items' total. */
function resolveAmount(raw: Raw): { raw: Raw; amountFromItems: boolean } {
  return { raw: withComputedAmount(raw), amountFromItems: raw.amount === undefined };
}

/**
 * Check and ask: the shared schema checks the request; in a terminal, the prompts ask for what is missing or
 * invalid (`onAnswers` hears each answer); elsewhere, the issues are the error.
 */
async function checkAndAsk(
  run: CreateRun,
  start: Raw,
  flagIssues: FieldIssue[],
  onAnswers: (answers: Raw) => void,
  amountFromItems: boolean,
): Promise<{ invoice: Invoice; asked: boolean }> {
  const { kind, terminal, context } = run;
  let raw = start;
  let result = validate(invoiceSchemas[kind], raw);
  if (result.success && flagIssues.length === 0) return { invoice: result.data, asked: false };
  const named = (issue: FieldIssue) => withSourceName(issue, run.sources);
  if (!terminal.interactive) {
    const fromItems = amountFromItems && Array.isArray(raw.items) && raw.items.length > 0;
    const schemaIssues = result.success ? [] : ofAmountFromItems(result.issues, fromItems, named);
    if (result.success && flagIssues.length === 0) return { invoice: result.data, asked: false };
    // Every problem of the request at once: its fields, its amount against its items, its dates, its warnings.
    const beyond = beyondTheSchema(run, raw);
    tellWarnings(run, beyond.warnings);
    const issues = dedupe([...flagIssues, ...notCoveredBy(flagIssues, schemaIssues, raw), ...beyond.issues]);
    const unknown = issues.some((issue) => issue.message.startsWith('is not a known field'));
    throw new UsageError(`The ${kind} invoice is incomplete or invalid; nothing was sent.`, {
      issues,
      hint: [
        `Give the fields as flags or in --file (see einvoice create ${kind} --help); ${whenAsked(context.env)}`,
        unknown ? '--drop-unknown-fields sends it without the fields the spec does not list, naming them.' : '',
        ...beyond.hints,
      ]
        .filter(Boolean)
        .join(' '),
    });
  }
  // A malformed flag or a field the prompts never ask about (another kind's, an unknown one) is not theirs to
  // repair: asking everything else first would only end in the same error, with the answers thrown away.
  const unanswerable = [
    ...flagIssues,
    ...(result.success ? [] : result.issues.filter((issue) => !canBeAsked(kind, issue.path)).map(named)),
  ];
  if (unanswerable.length > 0) {
    throw new UsageError(`The ${kind} invoice has fields that cannot be asked for; nothing was sent.`, {
      issues: dedupe(unanswerable),
      hint: 'Correct them on the command line or in --file; whatever is still missing is then asked for.',
    });
  }
  onAnswers(raw);
  raw = withComputedAmount(
    await askForInvoice(kind, raw, context, { now: run.now, timeZone: run.profile.timeZone }, onAnswers),
  );
  onAnswers(raw);
  result = validate(invoiceSchemas[kind], raw);
  if (!result.success) {
    throw new UsageError(`The ${kind} invoice is invalid; nothing was sent.`, {
      issues: result.issues.map(named),
    });
  }
  return { invoice: result.data, asked: true };
}

/** --save, --print-command and --dry-run; true when the run ends here, with nothing sent (--dry-run). */
async function writeWithoutSending(run: CreateRun, invoice: Invoice): Promise<boolean> {
  const { kind, options, context, terminal } = run;
  if (options.save) await saveRequest(options.save, invoice, context, terminal);
  if (options.printCommand) terminal.info(toCommandLine(kind, invoice, options.env));
  if (options.dryRun) terminal.data(toJson(invoice));
  return options.dryRun === true;
}

/** Confirm: in a terminal, without --yes, the preview and the question; no is a cancel. */
async function confirm(run: CreateRun, invoice: Invoice): Promise<void> {
  const { kind, options, context, terminal, profile } = run;
  if (!terminal.interactive || options.yes) return;
  terminal.info(
    renderInvoicePreview(kind, invoice, terminal.err, { currency: profile.currency, timeZone: profile.timeZone }),
  );
  if (!(await confirmAction(`Create this ${kind} invoice in ${profile.name}?`, context))) {
    throw new InterruptedError('Cancelled: nothing was sent.');
  }
}

/**
 * Send: the one request, its outcome told truly (sent, not sent, or may have been sent), and recorded in the
 * merchant's ledger.
 */
async function send(
  run: CreateRun,
  session: Session,
  invoice: Invoice,
  asked: boolean,
): Promise<{ invoiceNumber: string }> {
  const { kind, terminal, context, options } = run;
  const service = await session.connect();
  const recorder = startRecording(session, options, context, 'einvoice invoices list will not show it.');
  try {
    return await sentAndRecorded(
      recorder,
      () =>
        sendOnce(terminal, context, aboutCreating(kind, invoice), (request) =>
          service.client.createInvoice(kind, invoice, request),
        ),
      (answer) => ({
        type: 'invoice',
        kind,
        ...(answer.status === 'answered'
          ? { status: 'created', invoiceNumber: answer.result.invoiceNumber }
          : { status: answer.status, error: answer.error }),
        bodyJson: JSON.stringify(invoice),
        ...(run.profile.currency ? { currency: run.profile.currency } : {}),
        source: sourceOfOne(options.file, asked),
        service: serviceOf(session, context),
      }),
    );
  } finally {
    await service.close();
  }
}

/** Report: the invoice number on stdout, alone or as JSON; the sentence that tells it on stderr. */
function report(run: CreateRun, invoice: Invoice, invoiceNumber: string): void {
  const { kind, terminal, profile } = run;
  if (terminal.json) {
    terminal.data(toJson({ invoiceNumber }));
    return;
  }
  terminal.success(
    `Created ${kind} invoice ${invoiceNumber} for ${withCurrency(formatAmount(invoice.amount), profile.currency)} (${profile.name}).`,
  );
  terminal.data(invoiceNumber);
}

/** A create in the words of its outcome: with a businessReference, running it again is safe (rule 2.3). */
function aboutCreating(kind: InvoiceKind, invoice: Invoice) {
  const reference = invoice.businessReference;
  return {
    doing: `Creating the ${kind} invoice`,
    what: `the ${kind} invoice`,
    whatIsSafe:
      reference === undefined
        ? 'It has no businessReference, so running the same command again may create a second invoice: look for it in the service first.'
        : `Running the same command again is safe: the service refuses a second invoice with businessReference ${reference}, the same amount and sending date as a duplicate (spec rule 2.3).`,
    json: { kind, businessReference: reference ?? null },
  };
}

/**
 * The issues named for the merchant, when the amount was not given but is the items' total: an issue of the items
 * says what is wrong, so the amount's own (a negative total, or none) would only echo it; with valid items, the
 * amount's issue names the total rather than --amount, which the merchant never gave.
 */
function ofAmountFromItems(
  issues: FieldIssue[],
  amountFromItems: boolean,
  named: (issue: FieldIssue) => FieldIssue,
): FieldIssue[] {
  if (!amountFromItems) return issues.map(named);
  return withoutAmountEchoingItems(issues).map((issue) =>
    issue.path === 'amount' ? { ...issue, path: "amount (the items' total)" } : named(issue),
  );
}

/** With items and no amount, the amount is the items' total. */
function withComputedAmount(raw: Record<string, unknown>): Record<string, unknown> {
  const check = checkAmount(raw);
  return check.kind === 'computed' ? { ...raw, amount: check.amount } : raw;
}

/**
 * When the amount differs from the items' total, the merchant decides: by --keep-amount or --amount-from-items
 * (told as a warning), else asked in a terminal; elsewhere it was refused with the other problems.
 */
async function settleAmount(run: CreateRun, invoice: Invoice): Promise<Invoice> {
  const { kind, context, terminal } = run;
  const check = checkAmount(invoice);
  if (check.kind !== 'conflict') return invoice;
  const difference = `The amount ${formatAmount(check.given)} differs from the items' total ${formatAmount(check.computed)}`;
  const choice = amountChoiceOf(run.options);
  if (choice) {
    const raw: Raw = { ...invoice };
    const { decided } = settledAmount(raw, choice);
    if (decided) terminal.warn(`${decided.path}: ${decided.message}.`);
    return raw as Invoice;
  }
  const { select } = await import('../../input/inquirer.js');
  const chosen = await interruptible(() =>
    select(
      {
        message: `${difference}. Which should the ${kind} invoice use?`,
        choices: [
          { name: `the items' total, ${formatAmount(check.computed)}`, value: check.computed },
          { name: `the amount given, ${formatAmount(check.given)}`, value: check.given },
        ],
      },
      promptContext(context),
    ),
  );
  return { ...invoice, amount: chosen };
}

/**
 * What an unattended run refuses once the schema has passed: an amount that differs from its items without the
 * merchant's word, dates the customer could not pay, and under --strict the values to look at, all at once.
 */
function refuseWhatIsLeft(run: CreateRun, invoice: Invoice): void {
  const beyond = beyondTheSchema(run, invoice);
  if (beyond.issues.length === 0) return;
  tellWarnings(run, beyond.warnings);
  const onlyDates = beyond.issues.every((issue) => issue.path.startsWith('expiryDate'));
  throw new UsageError(
    onlyDates
      ? `The ${run.kind} invoice could not be paid: its expiry date is not ahead; nothing was sent.`
      : `The ${run.kind} invoice cannot be sent as it is; nothing was sent.`,
    { issues: beyond.issues, hint: beyond.hints.join(' ') },
  );
}

/**
 * The problems of a request the schema does not see, each with its advice: the amount against its items (unless
 * the run chose), its dates when they can be read, and under --strict its values to look at.
 */
function beyondTheSchema(run: CreateRun, raw: Raw): { issues: FieldIssue[]; hints: string[]; warnings: FieldIssue[] } {
  const issues: FieldIssue[] = [];
  const hints: string[] = [];
  const conflict = amountConflictIssue(run, raw);
  if (conflict && !amountChoiceOf(run.options)) {
    issues.push(conflict.issue);
    hints.push(conflict.hint);
  }
  const dates = wireDates(raw);
  const datesProblems = dates ? dateProblems(dates, run.now.toISOString()) : [];
  if (dates && datesProblems.length > 0) {
    issues.push(...datesProblems.map(({ path, message }) => withSourceName({ path, message }, run.sources)));
    hints.push(datesHint(run, dates));
  }
  const values = contactWarnings(raw).map((value) => withSourceName(value, run.sources));
  if (!(run.options.strict ?? run.profile.strict)) return { issues, hints, warnings: values };
  issues.push(...values.map((value) => ({ ...value, message: `${value.message} (--strict)` })));
  if (values.length > 0) hints.push('Correct the values, or pass --no-strict to send them as given.');
  return { issues, hints, warnings: [] };
}

/** Values to look at, told with the refusal of a request that has other problems. */
function tellWarnings(run: CreateRun, warnings: FieldIssue[]): void {
  for (const warning of warnings) run.terminal.warn(`${warning.path}: ${warning.message}.`);
}

/**
 * Advice on dates that would pass: when the sending date itself has passed, new sending, release and expiry dates
 * together (an expiry alone cannot be after a past sending date and still be ahead); else a later expiry.
 */
function datesHint(run: CreateRun, dates: { sendingDate: string; releaseDate: string }): string {
  const today = calendarDateIn(run.now, run.profile.timeZone);
  if (dates.sendingDate < today) {
    return (
      `Its sending date ${dates.sendingDate} has passed: send it from today, e.g. --sending-date today ` +
      '--release-date today --expiry-date +30d (30 days after the sending date).'
    );
  }
  return (
    `Give an expiry after the release date ${dates.releaseDate}, the sending date ${dates.sendingDate} and now, ` +
    'e.g. --expiry-date +30d (30 days after the sending date).'
  );
}

interface AmountConflict {
  issue: FieldIssue;
  hint: string;
}

/**
 * The amount that differs from its items' total, as an issue naming where the amount came from (`--amount`, or the
 * amount in the file) and both figures, with the choices; undefined when they agree or cannot be compared.
 */
function amountConflictIssue(run: CreateRun, raw: Raw): AmountConflict | undefined {
  const check = checkAmount(raw);
  if (check.kind !== 'conflict') return undefined;
  const byFlag = run.sources.flags.amount !== undefined;
  const source = byFlag ? '--amount' : run.sources.file?.amount !== undefined ? 'the amount in the file' : 'the amount';
  return {
    issue: {
      path: `amount (${source})`,
      message: `is ${formatAmount(check.given)}, the items add up to ${formatAmount(check.computed)}`,
    },
    hint: byFlag
      ? `Drop --amount to use the items total, or pass --keep-amount to send ${formatAmount(check.given)} as given.`
      : `Remove the amount from ${run.options.file === '-' ? 'stdin' : `--file ${run.options.file}`} to use the ` +
        `items' total (or pass --amount-from-items to send ${formatAmount(check.computed)}), or pass --keep-amount ` +
        `to send ${formatAmount(check.given)} as given.`,
  };
}

/**
 * An invoice whose expiry has passed, or is not after its release and sending dates, cannot be paid: it is refused
 * with the dates named (exit 2); in a terminal, the expiry date is asked again until it is after them.
 */
async function checkDates(run: CreateRun, start: Invoice): Promise<Invoice> {
  const { terminal, context, kind } = run;
  let invoice = start;
  for (;;) {
    const problems = dateProblems(invoice, run.now.toISOString());
    if (problems.length === 0) return invoice;
    const issues = problems.map(({ path, message }) => withSourceName({ path, message }, run.sources));
    if (!terminal.interactive) {
      throw new UsageError(`The ${kind} invoice could not be paid: its expiry date is not ahead; nothing was sent.`, {
        issues,
        hint: datesHint(run, invoice),
      });
    }
    for (const issue of issues) terminal.warn(`${issue.path}: ${issue.message}.`);
    const { input } = await import('../../input/inquirer.js');
    const clock = { now: run.now, timeZone: run.profile.timeZone };
    const typed = await interruptible(() =>
      input(
        {
          message: 'Expiry date (YYYY-MM-DD, +30d from the sending date, or an ISO instant)',
          default: '+30d',
          validate: (text) => {
            const expiryDate = normalizeDate('expiryDate', text, clock, invoice.sendingDate);
            const shape = validate(utcInstant(), expiryDate);
            if (!shape.success || typeof expiryDate !== 'string') {
              return withDateForms({
                path: 'expiryDate',
                message: shape.success ? '' : (shape.issues[0]?.message ?? ''),
              }).message;
            }
            const left = dateProblems({ ...invoice, expiryDate }, run.now.toISOString());
            return left.length === 0 || `${left[0]?.message ?? 'is not ahead'}`;
          },
        },
        promptContext(context),
      ),
    );
    invoice = { ...invoice, expiryDate: normalizeDate('expiryDate', typed, clock, invoice.sendingDate) as string };
  }
}

async function saveRequest(path: string, invoice: Invoice, context: CommandContext, terminal: Terminal): Promise<void> {
  const target = resolve(context.cwd, path);
  try {
    await writePrivateFile(target, `${toJson(invoice)}\n`);
  } catch (error) {
    throw new UsageError(`Cannot write --save ${path}: ${writeProblem(error)}; nothing was sent.`);
  }
  terminal.info(terminal.err.dim(`Saved the request to ${path}.`));
}

/**
 * The schema's issues less those about an `--item` of which no part could be read (values without keys, an unclosed
 * quote, only unknown keys): its fields' "is required" would only repeat the flag's own issues.
 */
function notCoveredBy(flagIssues: FieldIssue[], schemaIssues: FieldIssue[], raw: Raw): FieldIssue[] {
  const items = Array.isArray(raw.items) ? (raw.items as unknown[]) : [];
  const unreadable = flagIssues
    .map((issue) => /^(items\[(\d+)\]) \(--item\)$/.exec(issue.path))
    .filter((match) => match !== null)
    .filter((match) => Object.keys(items[Number(match[2])] ?? {}).length === 0)
    .map((match) => `${match[1]}.`);
  return schemaIssues.filter((issue) => !unreadable.some((prefix) => issue.path.startsWith(prefix)));
}

function dedupe(issues: FieldIssue[]): FieldIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
