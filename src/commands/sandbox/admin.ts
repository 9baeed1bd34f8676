import { rename } from 'node:fs/promises';
import { resolve } from 'node:path';
import { sandboxStateFile } from '../../config/paths.js';
import { connectToSandboxAdmin } from '../../service-connection.js';
import type { CommandContext, GlobalOptions } from '../../context.js';
import type { ExpireOptions, ResetOptions, SandboxOptions } from './flags.js';
import { LocalFileError, UsageError } from '../../errors.js';
import { toJson } from '../../output/format.js';
import { terminalSafe } from '../../output/safe-text.js';
import { withIsolatedRuns } from '../../schemas/text-direction.js';
import { checkedInvoiceNumber } from '../../api/invoice-number.js';
import { durationSchema } from '../../schemas/sandbox-admin.js';
import { validate } from '../../schemas/validate.js';
import { openSession, type Session } from '../../session.js';

/** Runs `task` against the selected sandbox's admin API, then lets go of it. */
async function withSandbox<T>(
  options: GlobalOptions,
  context: CommandContext,
  task: (admin: Awaited<ReturnType<typeof connectToSandboxAdmin>>['admin'], session: Session) => Promise<T>,
): Promise<T> {
  const session = await openSession(options, context);
  const connection = await connectToSandboxAdmin(session.profile, context.env);
  try {
    return await task(connection.admin, session);
  } finally {
    await connection.close();
  }
}

/**
 * `einvoice sandbox pay|cancel <invoiceNumber>`: settles an unpaid invoice as its customer would. A payment's order
 * reference number is stdout's, alone (or the answer as JSON); the sentence that tells it is stderr's.
 */
export async function settleSandboxInvoice(
  action: 'pay' | 'cancel',
  options: SandboxOptions & { invoiceNumber: string },
  context: CommandContext,
): Promise<void> {
  const invoiceNumber = checkedInvoiceNumber(options.invoiceNumber);
  await withSandbox(options, context, async (admin, { terminal }) => {
    const settled = action === 'pay' ? await admin.pay(invoiceNumber) : await admin.cancel(invoiceNumber);
    if (terminal.json) {
      terminal.data(toJson(settled));
      return;
    }
    const reference = settled.orderReferenceNumber;
    if (action === 'cancel' || reference === undefined) {
      terminal.success(`Invoice ${settled.invoiceNumber} is ${settled.status}.`);
      return;
    }
    terminal.success(`Invoice ${settled.invoiceNumber} is PAID; order reference number ${reference}.`);
    terminal.data(reference);
  });
}

/**
 * `einvoice sandbox expire [--by 30d]`: moves the sandbox's clock so that invoices due by then expire; their numbers
 * are stdout's, one a line.
 */
export async function advanceSandboxClock(options: ExpireOptions, context: CommandContext): Promise<void> {
  const checked = validate(durationSchema, options.by);
  if (!checked.success) {
    throw new UsageError(`Invalid --by "${options.by}".`, {
      issues: checked.issues.map((issue) => ({ ...issue, path: '--by' })),
    });
  }
  await withSandbox(options, context, async (admin, { terminal }) => {
    const { now, expired = [] } = await admin.advanceClock(checked.data);
    if (terminal.json) {
      terminal.data(toJson({ now, expired }));
      return;
    }
    terminal.info(
      `Sandbox clock is now ${now}; ${expired.length === 0 ? 'no invoice expired' : `expired: ${expired.join(', ')}`}.`,
    );
    for (const invoiceNumber of expired) terminal.data(invoiceNumber);
  });
}

/** `einvoice sandbox outbox`: the SMS and e-mails the sandbox sent in place of the real service. */
export async function showSandboxOutbox(options: SandboxOptions, context: CommandContext): Promise<void> {
  await withSandbox(options, context, async (admin, { terminal }) => {
    const { messages } = await admin.outbox();
    if (terminal.json) {
      terminal.data(toJson({ messages }));
      return;
    }
    if (messages.length === 0) {
      terminal.info('The outbox is empty.');
      return;
    }
    // The sandbox's words without escape sequences; in Arabic, each date, amount and number reads as one piece.
    const shown = (text: string) => withIsolatedRuns(terminalSafe(text));
    for (const message of messages) {
      terminal.data(
        `${message.at}  ${message.channel.padEnd(5)} to ${message.to} ${message.address}  invoice ${message.invoiceNumber} [${message.lang}]\n` +
          (message.subject === undefined ? '' : `  Subject: ${shown(message.subject)}\n`) +
          `  ${shown(message.text)}`,
      );
    }
  });
}

/**
 * `einvoice sandbox reset [--empty]`: starts over with the demo invoices, or with none. A built-in sandbox state file
 * that is damaged is moved aside, kept for a look, and a new one started; any other that cannot be used is refused.
 */
export async function resetSandbox(options: ResetOptions, context: CommandContext): Promise<void> {
  try {
    await startOver(options, context);
  } catch (error) {
    const builtIn = resolve(sandboxStateFile(context.env));
    if (!(error instanceof LocalFileError && error.problem === 'damaged' && error.file === builtIn)) throw error;
    const kept = await moveAside(builtIn, new Date());
    context.stderr.write(`The damaged state file is kept as ${kept}.\n`);
    await startOver(options, context);
  }
}

/** Moves a database file aside, with SQLite's files beside it, to a name of its own; returns that name. */
async function moveAside(file: string, now: Date): Promise<string> {
  const kept = `${file}.damaged-${now.toISOString().replace(/[:.]/g, '-')}`;
  // The write-ahead log first: one left beside a new file of the old name would be read into it.
  for (const suffix of ['-wal', '-shm']) {
    await rename(`${file}${suffix}`, `${kept}${suffix}`).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
  await rename(file, kept);
  return kept;
}

async function startOver(options: ResetOptions, context: CommandContext): Promise<void> {
  await withSandbox(options, context, async (admin, { terminal }) => {
    const result = await admin.reset(!options.empty);
    if (terminal.json) terminal.data(toJson(result));
    else
      terminal.success(`Sandbox reset: ${result.invoices === 0 ? 'no invoices' : `${result.invoices} demo invoices`}.`);
  });
}
