import type { CommandContext } from '../../context.js';
import { InterruptedError, UsageError } from '../../errors.js';
import { invoiceKind, type Plan, type RecordResult } from '../../bulk/index.js';
import type { ManyInvoices } from '../../sheet/index.js';
import { invoiceFromFlags } from '../../input/invoice-flags.js';
import { countOf } from '../../output/format.js';
import type { InvoiceKind } from '../../schemas/invoice.js';
import type { Session } from '../../session.js';
import { bulkRunOf, merchantWordOf } from '../shared/bulk-flags.js';
import { runBulkCommand, type BulkRunSettings } from '../shared/bulk-run.js';
import { amountChoiceOf, type CreateOptions } from './flags.js';

/** A run over a file of invoices as the command line asks for it, resolved once from the options. */
export interface BulkCreate {
  kind: InvoiceKind;
  settings: BulkRunSettings;
  /** What the kind's checks take of the flags and the profile (the invoice the flags give, `--strict`, ...). */
  checks: Omit<Parameters<typeof invoiceKind>[0], 'droppedFields' | 'dayRead'>;
  /** `--drop-unknown-fields`. */
  dropUnknownFields: boolean;
  /** `--mark-created` and `--mark-not-created`: the merchant's word on records of the journal, by their rows. */
  settle?: { done: readonly string[]; notDone: readonly string[] };
  /** `--yes`: no question before sending. */
  yes: boolean;
}

/**
 * The options of `create --file` with many invoices, as one plain object: refuses the flags of one invoice and
 * invalid invoice flags, and applies the profile's defaults.
 */
export function bulkCreateOf(kind: InvoiceKind, options: CreateOptions, profile: Session['profile']): BulkCreate {
  const oneInvoiceOnly = [options.save ? '--save' : '', options.printCommand ? '--print-command' : ''].filter(Boolean);
  if (oneInvoiceOnly.length > 0) {
    throw new UsageError(`${oneInvoiceOnly.join(' and ')} apply only to one invoice; nothing was sent.`, {
      hint: '--report FILE writes what happened to each record of a file of many.',
    });
  }
  const settings = bulkRunOf(options);
  const flags = invoiceFromFlags(options);
  if (flags.issues.length > 0) {
    throw new UsageError('Invalid invoice flags; nothing was sent.', { issues: flags.issues });
  }
  return {
    kind,
    settings,
    checks: {
      kind,
      defaults: profile.defaults,
      flags: flags.invoice,
      timeZone: profile.timeZone,
      allowExpired: Boolean(options.allowExpired),
      amountChoice: amountChoiceOf(options),
      strict: options.strict ?? profile.strict,
      referencePrefix: options.referencePrefix,
      fixMobiles: Boolean(options.fixMobiles),
    },
    dropUnknownFields: Boolean(options.dropUnknownFields),
    settle: merchantWordOf(options.markCreated, options.markNotCreated, {
      done: '--mark-created',
      notDone: '--mark-not-created',
      what: 'Row',
    }),
    yes: Boolean(options.yes),
  };
}

/**
 * `einvoice create single|recurring --file` with many invoices, its options resolved (`bulkCreateOf()`): each record
 * merged with the profile's defaults and the flags, checked by the invoice's rules, then created by the bulk engine.
 */
export async function createInvoicesInBulk(
  run: BulkCreate,
  session: Session,
  input: ManyInvoices,
  context: CommandContext,
): Promise<void> {
  const droppedFields = run.dropUnknownFields ? new Map<string, number>() : undefined;
  await runBulkCommand(
    {
      // The ledger warns of a record without a businessReference that another journal sent (held back, strict).
      kind: (ledger) => invoiceKind({ ...run.checks, droppedFields, dayRead: session.zone.dayRead }, { ledger }),
      afterPlan: () => {
        if (!droppedFields || droppedFields.size === 0) return;
        const named = [...droppedFields].map(([path, count]) => `${path} (${countOf(count, 'record')})`);
        session.terminal.warn(`Dropped fields the spec does not list: ${named.join(', ')}.`);
      },
      confirm: (plan) => confirm(run, plan, session, context),
      settle: run.settle,
      whatNext,
    },
    run.settings,
    session,
    input,
    context,
  );
}

/** In a terminal, without --yes, the question; no is a cancel. */
async function confirm(run: BulkCreate, plan: Plan, session: Session, context: CommandContext): Promise<void> {
  if (!session.terminal.interactive || run.yes) return;
  const { confirmAction } = await import('../../input/prompts.js');
  const question = `Create ${countOf(plan.toSend, `${run.kind} invoice`)} in ${session.profile.name}?`;
  if (!(await confirmAction(question, context))) throw new InterruptedError('Cancelled: nothing was sent.');
}

/** What the merchant can do about the invoices a run did not create. */
function whatNext(unfinished: readonly RecordResult[]): string {
  const has = (status: RecordResult['status']) => unfinished.some((result) => result.status === status);
  return [
    has('failed') || has('not-sent') ? 'Run the same command again to send the failed ones.' : undefined,
    // An uncertain record with a businessReference is sent again by a rerun, and the service refuses a duplicate of
    // it (rule 2.3); only one without a reference needs looking up first.
    unfinished.some((result) => result.status === 'uncertain' && result.businessReference !== undefined)
      ? 'Run the same command again for the uncertain ones with a businessReference: the service refuses a duplicate of them.'
      : undefined,
    unfinished.some((result) => result.status === 'uncertain' && result.businessReference === undefined)
      ? 'Look up the uncertain ones without a businessReference in the merchant dashboard, then say what you found: ' +
        '--mark-created ROW if it was created (never sent again), --mark-not-created ROW to let a rerun send it ' +
        '(--resend-uncertain sends every one again, a duplicate if it exists).'
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
