import { servicePaths } from '../../api/paths.js';
import { whenAsked, type CommandContext } from '../../context.js';
import type { RefundOptions } from './flags.js';
import { InterruptedError, UsageError } from '../../errors.js';
import { readInvoiceFile } from '../../sheet/index.js';
import { asObject, readJsonInput } from '../../input/json-file.js';
import { askFields, confirmAction, confirmByTyping, type FieldQuestion } from '../../input/prompts.js';
import { formatAmount, toJson } from '../../output/format.js';
import { embeddedSandboxLabel, renderRequestPreview } from '../../output/request-preview.js';
import { sendOnce } from '../../output/outcome.js';
import type { Terminal } from '../../output/terminal.js';
import { checkedInvoiceNumber } from '../../api/invoice-number.js';
import { refundSchema, type Refund } from '../../schemas/refund.js';
import { validate } from '../../schemas/validate.js';
import { openSession } from '../../session.js';
import { bulkFlagsGiven, csvFlagsGiven } from '../shared/bulk-flags.js';
import { ledgerFileOf, sentAndRecorded, serviceOf, sourceOfOne, startRecording } from '../shared/ledger-recording.js';
import { refundStandingIssues } from '../../schemas/refund-standing.js';
import { Ledger } from '../../ledger/ledger.js';
import { toMinorUnits } from '../../schemas/money.js';
import { inGithubActions, workflowCommand } from '../../output/github-actions.js';
import type { Session } from '../../session.js';

/** The flag that sets each refund field, for messages. */
const flagOf: Record<string, string> = { amount: '--amount', reason: '--reason', orderReferenceNumber: '--order-ref' };

const questions: FieldQuestion[] = [
  { key: 'amount', message: 'Amount to refund', rule: refundSchema.shape.amount },
  { key: 'reason', message: 'Reason for the refund', rule: refundSchema.shape.reason },
  {
    key: 'orderReferenceNumber',
    message: 'Order reference number of the payment',
    rule: refundSchema.shape.orderReferenceNumber,
  },
];

/** `einvoice refund <invoiceNumber>`: flags and file -> prompts for what is missing -> confirm -> send. */
export async function refund(options: RefundOptions, context: CommandContext): Promise<void> {
  if (options.invoiceNumber === undefined) {
    if (!options.file) {
      throw new UsageError('Name the invoice to refund, or give --file with many refunds; nothing was sent.', {
        hint: 'einvoice refund 1000007 --amount 150 --reason "Damaged item" --order-ref 3712345, or einvoice refund --file refunds.csv',
      });
    }
    const { bulkRefundOf, refundFromFile } = await import('./bulk.js');
    const run = bulkRefundOf(options);
    const session = await openSession(options, context);
    const input = await readInvoiceFile(options.file, context, options.format, options.encoding);
    if (input.kind === 'one') {
      throw new UsageError(`--file ${options.file} holds one JSON object, not a list of refunds; nothing was sent.`, {
        hint:
          'For one refund, name its invoice: einvoice refund 1000007 --file refund.json. For many, write them as CSV, ' +
          'NDJSON or a JSON array, each with its invoiceNumber (einvoice template refunds).',
      });
    }
    return refundFromFile(run, session, input, context);
  }
  const invoiceNumber = checkedInvoiceNumber(options.invoiceNumber);
  const manyOnly = refundBulkFlagsGiven(options);
  if (manyOnly.length > 0) {
    throw new UsageError(
      `${manyOnly.join(', ')} ${manyOnly.length === 1 ? 'applies' : 'apply'} only to a --file of many refunds; nothing was sent.`,
      {
        hint: 'Leave out <invoiceNumber> and give each refund its invoiceNumber in the file.',
      },
    );
  }
  const session = await openSession(options, context);
  const { terminal, profile } = session;

  const fromFile = options.file ? asObject(await readJsonInput(options.file, context), `--file ${options.file}`) : {};
  const fromFlags = definedOnly({
    amount: options.amount,
    reason: options.reason,
    orderReferenceNumber: options.orderRef,
  });
  let raw: Record<string, unknown> = { ...fromFile, ...fromFlags };

  let result = validate(refundSchema, raw);
  let asked = false;
  if (!result.success && terminal.interactive) {
    asked = true;
    const failing = new Set(result.issues.map((issue) => issue.path.split(/[.[]/)[0]));
    raw = {
      ...raw,
      ...(await askFields(
        questions.filter((question) => failing.has(question.key)),
        context,
      )),
    };
    result = validate(refundSchema, raw);
  }
  if (!result.success) {
    throw new UsageError(`The refund of invoice ${invoiceNumber} is incomplete or invalid; nothing was sent.`, {
      issues: result.issues.map((issue) => ({ ...issue, path: labelled(issue.path) })),
      hint: terminal.interactive
        ? undefined
        : `Give them as flags (--amount, --reason, --order-ref) or in --file; ${whenAsked(context.env)}`,
    });
  }
  const body: Refund = result.data;
  // What the ledger knows of the invoice, in a dry run too: a refund above its amount, of an invoice refunded.
  await checkAgainstLedger(invoiceNumber, body, options, session, context);

  if (options.dryRun) {
    const baseUrl = profile.baseUrl?.replace(/\/$/, '') ?? embeddedSandboxLabel;
    terminal.data(
      renderRequestPreview(
        { method: 'POST', url: `${baseUrl}/${servicePaths.refund(invoiceNumber)}`, body },
        terminal.json,
      ),
    );
    return;
  }

  await confirm(options, context, terminal, {
    invoiceNumber,
    body,
    environment: profile.name,
    production: profile.isProduction,
  });

  const service = await session.connect();
  const recorder = startRecording(session, options, context, 'einvoice invoices show will not show it.');
  try {
    await sentAndRecorded(
      recorder,
      () =>
        sendOnce(
          terminal,
          context,
          {
            doing: `Refunding invoice ${invoiceNumber}`,
            what: `the refund of invoice ${invoiceNumber}`,
            whatIsSafe: `Check whether invoice ${invoiceNumber} is refunded before running the refund again: a second one may be made.`,
            json: { invoiceNumber },
          },
          (request) => service.client.refundInvoice(invoiceNumber, body, request),
        ),
      (answer) => ({
        type: 'refund',
        invoiceNumber,
        ...(answer.status === 'answered' ? { status: 'refunded' } : { status: answer.status, error: answer.error }),
        bodyJson: JSON.stringify(body),
        ...(profile.currency ? { currency: profile.currency } : {}),
        source: sourceOfOne(options.file, asked),
        service: serviceOf(session, context),
      }),
    );
  } finally {
    await service.close();
  }
  // A refund makes no new number: without --json, stdout has nothing a script needs, and the sentence is stderr's.
  if (terminal.json) terminal.data(toJson({ invoiceNumber, refunded: true, amount: body.amount }));
  else terminal.success(`Refunded ${formatAmount(body.amount)} of invoice ${invoiceNumber} (${profile.name}).`);
}

/**
 * Warns of a refund the ledger says is wrong (more than the invoice holds, an invoice already refunded, an earlier
 * refund refused or of unknown outcome); under --strict (or the profile's strict) it is refused, nothing sent. A
 * ledger that cannot be read checks nothing: the refund is recorded, or told it could not be, after it is sent.
 */
async function checkAgainstLedger(
  invoiceNumber: string,
  body: Refund,
  options: RefundOptions,
  session: Session,
  context: CommandContext,
): Promise<void> {
  const file = ledgerFileOf(session, options, context);
  const ledger = file ? await Ledger.open(file, { create: false }).catch(() => undefined) : undefined;
  if (!ledger) return;
  let issues;
  try {
    const scope = ledger.currentScope(serviceOf(session, context));
    issues = refundStandingIssues(
      { invoiceNumber, amountMinor: toMinorUnits(body.amount) },
      ledger.standing(scope, invoiceNumber),
      session.profile.timeZone,
    );
  } finally {
    ledger.close();
  }
  if (issues.length === 0) return;
  if (options.strict ?? session.profile.strict) {
    throw new UsageError(`The ledger warns of the refund of invoice ${invoiceNumber}; nothing was sent (--strict).`, {
      issues,
      hint: 'Check the invoice in the merchant dashboard; pass --no-strict to send the refund with its warnings.',
    });
  }
  for (const issue of issues) {
    const text = `${issue.path}: ${issue.message}.`;
    session.terminal.warn(text);
    if (inGithubActions(context.env))
      context.stderr.write(`${workflowCommand('warning', { title: 'einvoice refund' }, text)}\n`);
  }
}

async function confirm(
  options: RefundOptions,
  context: CommandContext,
  terminal: Terminal,
  refund: { invoiceNumber: string; body: Refund; environment: string; production: boolean },
): Promise<void> {
  if (options.yes) return;
  if (!terminal.interactive) {
    throw new UsageError(
      'A refund needs confirmation, and this run cannot ask (no terminal, CI, or --no-input): nothing was sent.',
      {
        hint: 'Pass --yes to refund without asking.',
      },
    );
  }
  const { invoiceNumber, body, environment, production } = refund;
  terminal.info(
    [
      `Refund of invoice ${invoiceNumber} in ${environment}:`,
      `  Amount           ${formatAmount(body.amount)}`,
      `  Reason           ${body.reason}`,
      `  Order reference  ${body.orderReferenceNumber}`,
    ].join('\n'),
  );
  const confirmed = production
    ? await confirmByTyping(
        `This is production. Type the invoice number (${invoiceNumber}) to refund it:`,
        invoiceNumber,
        context,
      )
    : await confirmAction('Send this refund?', context);
  if (!confirmed) throw new InterruptedError('Refund cancelled: nothing was sent.');
}

function labelled(path: string): string {
  const flag = flagOf[path];
  return flag ? `${path} (${flag})` : path;
}

function definedOnly(values: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Record<
    string,
    string
  >;
}

/** The flags of a run over a file of many refunds that were given to a refund of one invoice. */
function refundBulkFlagsGiven(options: RefundOptions): string[] {
  return [
    ...bulkFlagsGiven(options),
    ...csvFlagsGiven(options),
    ...(options.expectCount !== undefined ? ['--expect-count'] : []),
    ...(options.expectTotal !== undefined ? ['--expect-total'] : []),
    ...(options.markRefunded ? ['--mark-refunded'] : []),
    ...(options.markNotRefunded ? ['--mark-not-refunded'] : []),
    ...(options.encoding !== undefined ? ['--encoding'] : []),
  ];
}
