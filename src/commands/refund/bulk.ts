import type { CommandContext } from '../../context.js';
import { InterruptedError, UsageError } from '../../errors.js';
import { refundKind, type Plan, type RecordResult } from '../../bulk/index.js';
import type { ManyInvoices } from '../../sheet/index.js';
import { countOf } from '../../output/format.js';
import { withCurrency } from '../../output/invoice-preview.js';
import { fromMinorUnits, toMinorUnits } from '../../schemas/money.js';
import { formatAmount, ungrouped } from '../../schemas/number-text.js';
import { refundSchema } from '../../schemas/refund.js';
import { validate } from '../../schemas/validate.js';
import type { Session } from '../../session.js';
import { bulkRunOf, merchantWordOf } from '../shared/bulk-flags.js';
import { runBulkCommand, type BulkRunSettings } from '../shared/bulk-run.js';
import type { RefundOptions } from './flags.js';

/** A run over a file of refunds as the command line asks for it, resolved once from the options. */
export interface BulkRefund {
  settings: BulkRunSettings;
  /** `--expect-count` and `--expect-total`: what the file must hold for anything to be sent. */
  pins: { count?: number; totalMinor?: bigint };
  /** `--mark-refunded` and `--mark-not-refunded`: the merchant's word on uncertain refunds of the journal. */
  settle?: { done: readonly string[]; notDone: readonly string[] };
  /** `--strict` or `--no-strict`: hold back the refunds the ledger warns of (else the profile's `strict`). */
  strict?: boolean;
  /** `--yes`: no question before sending. */
  yes: boolean;
}

/**
 * The options of `refund --file` with many refunds, as one plain object: refuses the flags of one refund and a pinned
 * total that is not an amount, before anything is opened.
 */
export function bulkRefundOf(options: RefundOptions): BulkRefund {
  const oneOnly = [
    options.amount !== undefined ? '--amount' : '',
    options.reason !== undefined ? '--reason' : '',
    options.orderRef !== undefined ? '--order-ref' : '',
  ].filter(Boolean);
  if (oneOnly.length > 0) {
    throw new UsageError(`${oneOnly.join(', ')} apply only to the refund of one invoice; nothing was sent.`, {
      hint: 'In a file of many refunds each has its own invoiceNumber, amount, reason and orderReferenceNumber.',
    });
  }
  return {
    settings: bulkRunOf(options),
    pins: { count: options.expectCount, totalMinor: expectedTotal(options.expectTotal) },
    settle: merchantWordOf(options.markRefunded, options.markNotRefunded, {
      done: '--mark-refunded',
      notDone: '--mark-not-refunded',
      what: 'Invoice',
    }),
    ...(options.strict !== undefined ? { strict: options.strict } : {}),
    yes: Boolean(options.yes),
  };
}

/**
 * `einvoice refund --file` with many refunds, its options resolved (`bulkRefundOf()`): every record checked before
 * anything is sent, the count and the total told (and pinned or typed), then sent by the bulk engine. A refund has
 * no idempotency key: one whose request may have left is never sent again until the merchant says what happened
 * (--mark-refunded, --mark-not-refunded).
 */
export async function refundFromFile(
  run: BulkRefund,
  session: Session,
  input: ManyInvoices,
  context: CommandContext,
): Promise<void> {
  await runBulkCommand(
    {
      // Each refund checked against what the ledger holds of its invoice, held back under strict.
      kind: (ledger) =>
        refundKind(
          { strict: run.strict ?? session.profile.strict, timeZone: session.profile.timeZone },
          ledger ? { ledger } : {},
        ),
      settle: run.settle,
      afterPlan: (plan) => {
        // A file refused whole (its records invalid, or its bytes not text in its encoding) has nothing to send.
        if ((plan.issues.length > 0 && !run.settings.skipInvalid) || input.undecodable()) return;
        session.terminal.info(
          `${countOf(plan.toSend, 'refund')} to send, ${totalOf(plan, session)} in all (${session.profile.name}).`,
        );
        checkPins(plan, run.pins, session);
      },
      confirm: (plan) => confirm(plan, run, session, context),
      whatNext,
    },
    run.settings,
    session,
    input,
    context,
  );
}

/** The refunds' total as the merchant reads it, in the profile's currency. */
function totalOf(plan: Plan, session: Session): string {
  return withCurrency(formatAmount(fromMinorUnits(plan.totalMinor ?? 0n)), session.profile.currency);
}

/**
 * --expect-count and --expect-total: a file that does not hold what the run expects sends nothing. They pin the file
 * (its valid refunds, those an earlier run sent included), so the same command goes on when it is run again.
 */
function checkPins(plan: Plan, pins: { count?: number; totalMinor?: bigint }, session: Session): void {
  const { count, totalMinor = 0n } = plan.inFile;
  const problems = [
    pins.count !== undefined && pins.count !== count
      ? { path: '--expect-count', message: `is ${pins.count}, the file holds ${countOf(count, 'refund')}` }
      : undefined,
    pins.totalMinor !== undefined && pins.totalMinor !== totalMinor
      ? {
          path: '--expect-total',
          message:
            `is ${formatAmount(fromMinorUnits(pins.totalMinor))}, the file's refunds add up to ` +
            withCurrency(formatAmount(fromMinorUnits(totalMinor)), session.profile.currency),
        }
      : undefined,
  ].filter((problem) => problem !== undefined);
  if (problems.length > 0) {
    throw new UsageError('The file does not hold the refunds this run expects; nothing was sent.', {
      issues: problems,
      hint: 'Check that this is the right file (and shard), or correct --expect-count and --expect-total.',
    });
  }
}

/**
 * Before refunds leave: --yes goes on; in a terminal the merchant confirms, typing the total in production; with
 * no terminal and no --yes, nothing is sent.
 */
async function confirm(plan: Plan, run: BulkRefund, session: Session, context: CommandContext): Promise<void> {
  if (run.yes) return;
  const { terminal, profile } = session;
  if (!terminal.interactive) {
    throw new UsageError(
      'Refunds need confirmation, and this run cannot ask (no terminal, CI, or --no-input): nothing was sent.',
      {
        hint: 'Pass --yes to send them (and --expect-count / --expect-total to pin what the file must hold).',
      },
    );
  }
  const { confirmAction, confirmByTyping } = await import('../../input/prompts.js');
  const total = formatAmount(fromMinorUnits(plan.totalMinor ?? 0n));
  const confirmed = profile.isProduction
    ? await confirmByTyping(
        `This is production. Type the total (${total}) to send ${countOf(plan.toSend, 'refund')}:`,
        total,
        context,
      )
    : await confirmAction(
        `Send ${countOf(plan.toSend, 'refund')} (${totalOf(plan, session)}) in ${profile.name}?`,
        context,
      );
  if (!confirmed) throw new InterruptedError('Cancelled: nothing was sent.');
}

/** The total the run expects, exact to the minor unit, by the rule of a refund's amount. */
function expectedTotal(value: string | undefined): bigint | undefined {
  if (value === undefined) return undefined;
  // As the run shows a total (`1,060.00`), so it may be pinned.
  const amount = validate(refundSchema.shape.amount, ungrouped(value.trim()));
  if (!amount.success) {
    throw new UsageError('--expect-total is not an amount; nothing was sent.', {
      issues: amount.issues.map((issue) => ({ ...issue, path: '--expect-total' })),
    });
  }
  return toMinorUnits(amount.data);
}

/** What the merchant can do about the refunds a run did not make. */
function whatNext(unfinished: readonly RecordResult[]): string {
  const has = (status: RecordResult['status']) => unfinished.some((result) => result.status === status);
  return [
    has('failed') || has('not-sent')
      ? 'Run the same command again to send the failed ones (fix the refused first).'
      : undefined,
    // A refund has no idempotency key: only the merchant can say whether an uncertain one was made.
    has('uncertain')
      ? 'Look up each uncertain refund in the merchant dashboard; a rerun never sends it again until you say what ' +
        'happened: --mark-refunded INVOICE if it was refunded, --mark-not-refunded INVOICE to let a rerun send it.'
      : undefined,
    has('invalid') ? 'Fix the invalid ones and run the same command again.' : undefined,
    has('changed') ? 'Edited refunds were not sent again: their earlier version was sent.' : undefined,
  ]
    .filter(Boolean)
    .join(' ');
}
