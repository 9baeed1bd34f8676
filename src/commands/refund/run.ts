import { servicePaths } from '../../api/paths.js';
import { whenAsked, type CommandContext } from '../../context.js';
import type { RefundOptions } from './flags.js';
import { InterruptedError, UsageError } from '../../errors.js';
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
  const invoiceNumber = checkedInvoiceNumber(options.invoiceNumber);
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
  if (!result.success && terminal.interactive) {
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
  try {
    await sendOnce(
      terminal,
      context,
      {
        doing: `Refunding invoice ${invoiceNumber}`,
        what: `the refund of invoice ${invoiceNumber}`,
        whatIsSafe: `Check whether invoice ${invoiceNumber} is refunded before running the refund again: a second one may be made.`,
        json: { invoiceNumber },
      },
      (request) => service.client.refundInvoice(invoiceNumber, body, request),
    );
  } finally {
    await service.close();
  }
  terminal.data(
    terminal.json
      ? toJson({ invoiceNumber, refunded: true, amount: body.amount })
      : `${terminal.out.green('✔')} Refunded ${formatAmount(body.amount)} of invoice ${invoiceNumber} (${profile.name}).`,
  );
}

async function confirm(
  options: RefundOptions,
  context: CommandContext,
  terminal: Terminal,
  refund: { invoiceNumber: string; body: Refund; environment: string; production: boolean },
): Promise<void> {
  if (options.yes) return;
  if (!terminal.interactive) {
    throw new UsageError('A refund needs confirmation, and there is no terminal to ask on: nothing was sent.', {
      hint: 'Pass --yes to refund without asking.',
    });
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
