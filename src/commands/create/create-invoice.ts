import { mkdir, rm, writeFile } from 'node:fs/promises';
import { quote } from 'shell-quote';
import { dirname, resolve } from 'node:path';
import { draftFile, isDraftFile } from '../../config/paths.js';
import { whenAsked, type CommandContext, type GlobalOptions } from '../../context.js';
import { EinvoiceError, InterruptedError, UsageError, type FieldIssue } from '../../errors.js';
import { checkAmount, mergeInvoiceSources } from '../../input/invoice-input.js';
import { invoiceFromFlags, toCommandLine, withFlagName, type InvoiceFlags } from '../../input/invoice-flags.js';
import { askForInvoice, canBeAsked } from '../../input/invoice-prompts.js';
import { asObject } from '../../input/json-file.js';
import { confirmAction, interruptible, promptContext } from '../../input/prompts.js';
import { formatAmount, toJson } from '../../output/format.js';
import { renderInvoicePreview } from '../../output/invoice-preview.js';
import { sendOnce } from '../../output/outcome.js';
import type { Terminal } from '../../output/terminal.js';
import { invoiceSchemas, type Invoice, type InvoiceKind } from '../../schemas/invoice.js';
import { validate } from '../../schemas/validate.js';
import { openSession } from '../../session.js';
import { readInvoiceFile } from '../../bulk/input-format.js';
import { bulkFlagsGiven, type BulkFlags } from '../../bulk/options.js';
import { csvFlagsGiven, type CsvFlags } from '../../bulk/csv-options.js';

export interface CreateOptions extends GlobalOptions, InvoiceFlags, BulkFlags, CsvFlags {
  file?: string;
  yes?: boolean;
  dryRun?: boolean;
  save?: string;
  printCommand?: boolean;
}

/**
 * `einvoice create single|recurring`: profile defaults < file < flags < prompts -> the shared schema -> preview and
 * confirmation -> the service -> the invoice number.
 */
export async function createInvoiceCommand(
  kind: InvoiceKind,
  options: CreateOptions,
  context: CommandContext,
): Promise<void> {
  const session = await openSession(options, context);
  const { terminal, profile, connect } = session;
  const now = new Date();
  // A file of many invoices (a JSON array or NDJSON) goes to bulk creation; one JSON object stays here.
  const input = options.file ? await readInvoiceFile(options.file, context, options.format) : undefined;
  const csvOnly = input?.kind === 'many' && input.format === 'csv' ? [] : csvFlagsGiven(options);
  if (csvOnly.length > 0) {
    throw new UsageError(`${csvOnly.join(', ')} apply only to a CSV --file; nothing was sent.`, {
      hint: 'A file ending in .csv is read as CSV, and --format csv reads any --file (or stdin) as CSV.',
    });
  }
  if (input?.kind === 'many') {
    const { createInvoicesInBulk } = await import('./bulk.js');
    return createInvoicesInBulk(kind, options, session, input, context);
  }
  const bulkOnly = bulkFlagsGiven(options);
  if (bulkOnly.length > 0) {
    throw new UsageError(`${bulkOnly.join(', ')} apply only to a --file of many invoices; nothing was sent.`, {
      hint: 'Give --file a JSON array of invoices, or NDJSON (one invoice per line).',
    });
  }
  // A draft kept by an earlier run: said so, continued, and removed once its invoice is created.
  const draft =
    options.file && options.file !== '-' && isDraftFile(resolve(context.cwd, options.file), context.env)
      ? resolve(context.cwd, options.file)
      : undefined;
  if (draft) {
    terminal.info(
      `${options.file} is a draft of answers typed at the prompts of an earlier run; it is removed once the invoice is created.`,
    );
  }
  const fromFlags = invoiceFromFlags(options);
  const file = input ? asObject(input.value, `--file ${options.file}`) : undefined;
  let raw = mergeInvoiceSources({ kind, defaults: profile.defaults, file, flags: fromFlags.invoice, now });
  const amountFromItems = raw.amount === undefined;
  raw = withComputedAmount(raw);

  let result = validate(invoiceSchemas[kind], raw);
  // A malformed flag or a field the prompts never ask about (another kind's, an unknown one) is not theirs to
  // repair: asking everything else first would only end in the same error, with the answers thrown away.
  const unanswerable = [
    ...fromFlags.issues,
    ...(result.success ? [] : result.issues.filter((issue) => !canBeAsked(kind, issue.path)).map(withFlagName)),
  ];
  let typedAtPrompts = false;
  if (unanswerable.length > 0 && terminal.interactive) {
    throw new UsageError(`The ${kind} invoice has fields that cannot be asked for; nothing was sent.`, {
      issues: dedupe(unanswerable),
      hint: 'Correct them on the command line or in --file; whatever is still missing is then asked for.',
    });
  }
  if ((!result.success || fromFlags.issues.length > 0) && terminal.interactive) {
    typedAtPrompts = true;
    let answers = raw;
    try {
      raw = await askForInvoice(kind, raw, context, now, (progress) => (answers = progress));
    } catch (error) {
      if (error instanceof InterruptedError) await keepDraft(kind, answers, context, terminal, now, options);
      throw error;
    }
    raw = withComputedAmount(raw);
    result = validate(invoiceSchemas[kind], raw);
  } else if (!result.success || fromFlags.issues.length > 0) {
    // Items whose total could not be computed leave the amount unset; it is their total once they are valid, so
    // "amount is required" would only echo the items' own issues.
    const awaitsItems = raw.amount === undefined && Array.isArray(raw.items) && raw.items.length > 0;
    const schemaIssues = result.success
      ? []
      : result.issues.filter((issue) => !(awaitsItems && issue.path === 'amount'));
    const issues = [...fromFlags.issues, ...schemaIssues.map(withFlagName)];
    throw new UsageError(`The ${kind} invoice is incomplete or invalid; nothing was sent.`, {
      issues: dedupe(issues),
      hint: terminal.interactive
        ? undefined
        : `Give the fields as flags or in --file (see einvoice create ${kind} --help); ${whenAsked(context.env)}`,
    });
  }
  if (!result.success) {
    if (typedAtPrompts) await keepDraft(kind, raw, context, terminal, now, options);
    throw new UsageError(`The ${kind} invoice is invalid; nothing was sent.`, {
      issues: result.issues.map(withFlagName),
    });
  }
  let invoice: Invoice = result.data;
  if (amountFromItems && !typedAtPrompts) {
    terminal.info(terminal.err.dim(`Amount ${formatAmount(invoice.amount)} is the total of the items.`));
  }
  // Ctrl-C at the amount choice or the confirmation keeps what was typed, as Ctrl-C at the prompts does.
  const keepTypedOnInterrupt = async <T>(ask: () => Promise<T>, draft: Invoice): Promise<T> => {
    try {
      return await ask();
    } catch (error) {
      if (typedAtPrompts && error instanceof InterruptedError)
        await keepDraft(kind, draft, context, terminal, now, options);
      throw error;
    }
  };
  const validated = invoice;
  invoice = await keepTypedOnInterrupt(() => settleAmount(kind, validated, options, context, terminal), validated);
  warnAboutDates(invoice, terminal, now);

  if (options.save) await saveRequest(options.save, invoice, context, terminal);
  if (options.printCommand) terminal.info(toCommandLine(kind, invoice, options.env));
  if (options.dryRun) {
    terminal.data(toJson(invoice));
    return;
  }

  if (terminal.interactive && !options.yes) {
    terminal.info(renderInvoicePreview(kind, invoice, terminal.err));
    const question = `Create this ${kind} invoice in ${profile.name}?`;
    if (!(await keepTypedOnInterrupt(() => confirmAction(question, context), invoice))) {
      if (typedAtPrompts) await keepDraft(kind, invoice, context, terminal, now, options);
      throw new InterruptedError('Cancelled: nothing was sent.');
    }
  }

  const service = await connect();
  let created: { invoiceNumber: string };
  try {
    created = await sendOnce(terminal, context, aboutCreating(kind, invoice), (request) =>
      service.client.createInvoice(kind, invoice, request),
    );
  } catch (error) {
    if (typedAtPrompts && error instanceof EinvoiceError)
      await keepDraft(kind, invoice, context, terminal, now, options);
    throw error;
  } finally {
    await service.close();
  }
  if (draft) await rm(draft, { force: true });
  terminal.data(
    terminal.json
      ? toJson({ invoiceNumber: created.invoiceNumber })
      : `${terminal.out.green('✔')} Created ${kind} invoice ${created.invoiceNumber} for ${formatAmount(invoice.amount)} (${profile.name}).`,
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

/** With items and no amount, the amount is the items' total. */
function withComputedAmount(raw: Record<string, unknown>): Record<string, unknown> {
  const check = checkAmount(raw);
  return check.kind === 'computed' ? { ...raw, amount: check.amount } : raw;
}

/** When --amount differs from the items' total, the merchant decides: asked in a terminal, else --yes keeps it. */
async function settleAmount(
  kind: InvoiceKind,
  invoice: Invoice,
  options: CreateOptions,
  context: CommandContext,
  terminal: Terminal,
): Promise<Invoice> {
  const check = checkAmount(invoice);
  if (check.kind !== 'conflict') return invoice;
  const difference = `The amount ${formatAmount(check.given)} differs from the items' total ${formatAmount(check.computed)}`;
  if (options.yes) {
    terminal.warn(`${difference}; keeping ${formatAmount(check.given)} (--yes).`);
    return invoice;
  }
  if (!terminal.interactive) {
    throw new UsageError(`${difference}; nothing was sent.`, {
      issues: [
        {
          path: 'amount (--amount)',
          message: `is ${formatAmount(check.given)}, the items add up to ${formatAmount(check.computed)}`,
        },
      ],
      hint: 'Drop --amount to use the items total, or pass --yes to keep the amount as given.',
    });
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

/** Warns, without stopping, when the expiry has passed or is not after the release or the sending date. */
function warnAboutDates(invoice: Invoice, terminal: Terminal, now: Date): void {
  const expiry = Date.parse(invoice.expiryDate);
  if (expiry <= now.getTime()) {
    terminal.warn(`expiryDate ${invoice.expiryDate} has already passed: the invoice expires as soon as it is created.`);
  }
  const before = [
    expiry <= Date.parse(invoice.releaseDate) ? `releaseDate ${invoice.releaseDate}` : undefined,
    expiry <= Date.parse(`${invoice.sendingDate}T00:00:00.000Z`) ? `sendingDate ${invoice.sendingDate}` : undefined,
  ].filter(Boolean);
  if (before.length > 0) terminal.warn(`expiryDate ${invoice.expiryDate} is not after ${before.join(' or ')}.`);
}

async function saveRequest(path: string, invoice: Invoice, context: CommandContext, terminal: Terminal): Promise<void> {
  const target = resolve(context.cwd, path);
  try {
    await writeFile(target, `${toJson(invoice)}\n`, { mode: 0o600 });
  } catch (error) {
    throw new UsageError(`Cannot write --save ${path}: ${(error as Error).message}; nothing was sent.`);
  }
  terminal.info(terminal.err.dim(`Saved the request to ${path}.`));
}

/** Keeps what the merchant typed, so an interrupted or failed run can be finished with --file. */
async function keepDraft(
  kind: InvoiceKind,
  draft: Record<string, unknown>,
  context: CommandContext,
  terminal: Terminal,
  now: Date,
  options: Pick<CreateOptions, 'env' | 'config' | 'file'>,
): Promise<void> {
  // Continuing a draft that fails again keeps it in the same file.
  const continued = options.file && options.file !== '-' ? resolve(context.cwd, options.file) : undefined;
  const path = continued && isDraftFile(continued, context.env) ? continued : draftFile(kind, context.env, now);
  const again = [
    'einvoice',
    ...(options.env ? ['--env', options.env] : []),
    ...(options.config ? ['--config', options.config] : []),
    'create',
    kind,
    '--file',
    path,
  ];
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await writeFile(path, `${toJson(draft)}\n`, { mode: 0o600 });
    terminal.info(`Your answers are saved in ${path}\nContinue with: ${quote(again)}`);
  } catch {
    // Keeping the draft is a courtesy: the error being reported matters more than this one.
  }
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
