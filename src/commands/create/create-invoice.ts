import { resolve } from 'node:path';
import { whenAsked, type CommandContext } from '../../context.js';
import { EinvoiceError, InterruptedError, UsageError, type FieldIssue } from '../../errors.js';
import { checkAmount, mergeInvoiceSources, withoutAmountEchoingItems } from '../../input/invoice-input.js';
import { invoiceFromFlags, toCommandLine, withSourceName } from '../../input/invoice-flags.js';
import { askForInvoice, canBeAsked } from '../../input/invoice-prompts.js';
import { asObject, writeProblem } from '../../input/json-file.js';
import { confirmAction, interruptible, promptContext } from '../../input/prompts.js';
import { countOf, formatAmount, toJson } from '../../output/format.js';
import { renderInvoicePreview, withCurrency } from '../../output/invoice-preview.js';
import { sendOnce } from '../../output/outcome.js';
import { dateProblems } from '../../schemas/invoice-dates.js';
import { contactWarnings } from '../../schemas/contact-warnings.js';
import { withoutUnknownFields } from '../../schemas/unknown-fields.js';
import { normalizeDate, withDateForms } from '../../input/dates.js';
import { utcInstant } from '../../schemas/calendar.js';
import type { Terminal } from '../../output/terminal.js';
import type { Profile } from '../../config/profile.js';
import { invoiceSchemas, type Invoice, type InvoiceKind } from '../../schemas/invoice.js';
import { validate } from '../../schemas/validate.js';
import type { Session } from '../../session.js';
import { openDraft } from './draft.js';
import type { CreateOptions } from './options.js';
import { writePrivateFile } from '../../private-file.js';

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
    sources: { flags: {} },
  };
  const draft = openDraft(kind, options, context, run.terminal, run.now);
  const gathered = gather(run, file);
  const { raw, amountFromItems } = resolveAmount(gathered.raw);
  let typed: Raw | undefined;
  const keepTyped = (answers: Raw) => (typed = answers);
  try {
    const checked = await checkAndAsk(run, raw, gathered.flagIssues, keepTyped, amountFromItems);
    if (typed) typed = checked.invoice;
    if (amountFromItems && !checked.asked) {
      run.terminal.info(
        run.terminal.err.dim(`Amount ${formatAmount(checked.invoice.amount)} is the total of the items.`),
      );
    }
    let invoice = await settleAmount(run, checked.invoice);
    for (const value of contactWarnings(invoice)) {
      const named = withSourceName(value, run.sources);
      run.terminal.warn(`${named.path}: ${named.message}; sent as given.`);
    }
    invoice = await checkDates(run, invoice);
    if (typed) typed = invoice;
    if (await writeWithoutSending(run, invoice)) return;
    await confirm(run, invoice);
    const created = await send(run, session, invoice);
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
  });
  run.sources = { flags: fromFlags.invoice, file: fileObject };
  return { raw, flagIssues: fromFlags.issues };
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
    // The amount that differs from its items is said with the other problems, not after they are mended.
    const conflict = run.options.yes ? undefined : amountConflictIssue(run, raw);
    throw new UsageError(`The ${kind} invoice is incomplete or invalid; nothing was sent.`, {
      issues: dedupe([
        ...flagIssues,
        ...notCoveredBy(flagIssues, schemaIssues, raw),
        ...(conflict ? [conflict.issue] : []),
      ]),
      hint:
        `Give the fields as flags or in --file (see einvoice create ${kind} --help); ${whenAsked(context.env)}` +
        (conflict ? ` ${conflict.hint}` : ''),
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

/** Send: the one request, its outcome told truly (sent, not sent, or may have been sent). */
async function send(run: CreateRun, session: Session, invoice: Invoice): Promise<{ invoiceNumber: string }> {
  const { kind, terminal, context } = run;
  const service = await session.connect();
  try {
    return await sendOnce(terminal, context, aboutCreating(kind, invoice), (request) =>
      service.client.createInvoice(kind, invoice, request),
    );
  } finally {
    await service.close();
  }
}

/** Report: the invoice number on stdout, as a sentence or as JSON. */
function report(run: CreateRun, invoice: Invoice, invoiceNumber: string): void {
  const { kind, terminal, profile } = run;
  terminal.data(
    terminal.json
      ? toJson({ invoiceNumber })
      : `${terminal.out.green('✔')} Created ${kind} invoice ${invoiceNumber} for ${withCurrency(formatAmount(invoice.amount), profile.currency)} (${profile.name}).`,
  );
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

/** When --amount differs from the items' total, the merchant decides: asked in a terminal, else --yes keeps it. */
async function settleAmount(run: CreateRun, invoice: Invoice): Promise<Invoice> {
  const { kind, options, context, terminal } = run;
  const check = checkAmount(invoice);
  if (check.kind !== 'conflict') return invoice;
  const difference = `The amount ${formatAmount(check.given)} differs from the items' total ${formatAmount(check.computed)}`;
  if (options.yes) {
    terminal.warn(`${difference}; keeping ${formatAmount(check.given)} (--yes).`);
    return invoice;
  }
  if (!terminal.interactive) {
    const conflict = amountConflictIssue(run, invoice) as AmountConflict;
    throw new UsageError(`${difference}; nothing was sent.`, { issues: [conflict.issue], hint: conflict.hint });
  }
  const { select } = await import('../../input/inquirer.js');
  const choice = await interruptible(() =>
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
  return { ...invoice, amount: choice };
}

interface AmountConflict {
  issue: FieldIssue;
  hint: string;
}

/**
 * The amount that differs from its items' total, as an issue naming where the amount came from (`--amount`, or the
 * amount in the file) and what to do about it; undefined when they agree or cannot be compared.
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
      ? 'Drop --amount to use the items total, or pass --yes to keep the amount as given.'
      : `Remove the amount from ${run.options.file === '-' ? 'stdin' : `--file ${run.options.file}`} to use the items' total, or pass --yes to keep it as given.`,
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
        hint:
          `Give an expiry after the release date ${invoice.releaseDate}, the sending date ${invoice.sendingDate} and now, ` +
          'e.g. --expiry-date +30d (30 days after the sending date).',
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
