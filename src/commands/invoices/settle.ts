import type { CommandContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { FoundInvoice, Ledger } from '../../ledger/ledger.js';
import { invoiceNumberSchema } from '../../schemas/invoice-number.js';
import { validate } from '../../schemas/validate.js';
import { visible } from '../../schemas/visible-text.js';
import { openSession, type Session } from '../../session.js';
import { serviceOf } from '../shared/ledger-recording.js';
import type { SettleOptions } from './flags.js';
import { emptyLedgerNote, readLedger } from './ledger-of.js';

/** What the merchant can say of an entry, and the status the ledger records for it. */
const words = {
  created: { status: 'created', decided: 'created, as the merchant said', of: 'invoice' },
  notCreated: { status: 'not-created', decided: 'not created, as the merchant said', of: 'invoice' },
  refunded: { status: 'refunded', decided: 'refunded, as the merchant said', of: 'refund' },
  notRefunded: { status: 'not-refunded', decided: 'not refunded, as the merchant said', of: 'refund' },
} as const;

type Word = keyof typeof words;

/**
 * `einvoice invoices settle <id> --created|--not-created|--refunded|--not-refunded`: the merchant's word on an
 * invoice or refund whose outcome is unknown (a create or refund of one command, or a journal's record), recorded in
 * the ledger; a later word replaces it. The service's own answer is never overruled.
 */
export async function settleInvoice(id: string, options: SettleOptions, context: CommandContext): Promise<void> {
  const said = (Object.keys(words) as Word[]).filter((word) => options[word]);
  if (said.length !== 1) {
    throw new UsageError(
      `${said.length === 0 ? 'Say what you found' : 'Say one thing'} of ${visible(id)}: --created, --not-created, --refunded or --not-refunded; nothing was changed.`,
    );
  }
  const word = words[said[0] as Word];
  const session = await openSession(options, context, 'ledger');
  const ledger = await readLedger(session, context);
  if (!ledger) throw new UsageError(`Nothing to settle: ${emptyLedgerNote(session, context)}`);
  const at = new Date().toISOString();
  try {
    if (word.of === 'invoice') settleCreate(ledger, id, word, at, session);
    else settleRefunds(ledger, id, word, at, session, context);
  } finally {
    ledger.close();
  }
}

/** The merchant's word on an invoice whose create's outcome is unknown. */
function settleCreate(
  ledger: Ledger,
  id: string,
  word: (typeof words)['created' | 'notCreated'],
  at: string,
  session: Session,
): void {
  const one = onlyInvoice(ledger.find(id), id, session);
  const { invoice, history } = one;
  // What the service answered stands: a created invoice exists, a refused one does not.
  const answered = history.find((step) => !step.marked && (step.status === 'created' || step.status === 'refused'));
  if (answered) {
    throw new UsageError(
      `The service answered ${answered.status === 'created' ? `that invoice ${invoice.id} was created` : `invoice ${invoice.id} with a refusal`}; nothing was changed.`,
      { hint: 'Only an invoice whose outcome is unknown (uncertain) is settled by your word.' },
    );
  }
  ledger.mark(
    history.map((step) => ({ type: 'invoice' as const, key: step.key, status: word.status, decided: word.decided })),
    at,
  );
  session.terminal.success(`Invoice ${invoice.id} is recorded as ${word.decided}.`);
  if (invoice.journal && invoice.sourceFile && invoice.sourceLine !== null) {
    session.terminal.info(
      `The journal ${invoice.journal} keeps its own record: a rerun of ${invoice.sourceFile} takes ` +
        `--mark-${word.status} ${invoice.sourceLine}, so that it ${word.status === 'created' ? 'is not sent again' : 'is sent again'}.`,
    );
  }
}

/** The merchant's word on the refunds of an invoice whose outcome is unknown. */
function settleRefunds(
  ledger: Ledger,
  id: string,
  word: (typeof words)['refunded' | 'notRefunded'],
  at: string,
  session: Session,
  context: CommandContext,
): void {
  const found = ledger.find(id).filter((one) => one.invoice.invoiceNumber !== null);
  const invoice = found.length > 0 ? onlyInvoice(found, id, session).invoice : undefined;
  // A refund of an invoice made elsewhere (the dashboard, another machine) is named by its number.
  const number = invoice?.invoiceNumber ?? checkedNumber(id);
  const scope = invoice?.scope ?? ledger.currentScope(serviceOf(session, context));
  const { refunds } = ledger.standing(scope, number);
  const made = refunds.find((refund) => refund.status === 'refunded' && refund.decided === null);
  if (made && word.status === 'not-refunded') {
    throw new UsageError(`The service answered that the refund of invoice ${number} was made; nothing was changed.`);
  }
  const settled = ledger.markRefundsOf(scope, number, word.status, word.decided, at);
  if (settled === 0) {
    throw new UsageError(`No refund of invoice ${number} in the ledger is uncertain; nothing was changed.`, {
      hint: 'einvoice invoices show NUMBER shows its refunds.',
    });
  }
  session.terminal.success(
    `${settled === 1 ? 'The refund' : `${settled} refunds`} of invoice ${number} ${settled === 1 ? 'is' : 'are'} recorded as ${word.decided}.`,
  );
}

/** The one invoice `found` holds; refused when there is none, or more than one (their ids named). */
function onlyInvoice(found: FoundInvoice[], id: string, session: Session): FoundInvoice {
  if (found.length === 0) {
    throw new UsageError(
      `No invoice with the id, number or reference ${visible(id)} is in the ledger of ${session.profile.name}; nothing was changed.`,
      { hint: 'einvoice invoices list shows each invoice with its id (L12).' },
    );
  }
  if (found.length > 1) {
    throw new UsageError(
      `${visible(id)} names ${found.length} invoices of the ledger (${found.map((one) => one.invoice.id).join(', ')}); nothing was changed.`,
      { hint: 'Give the id of the one you mean.' },
    );
  }
  return found[0] as FoundInvoice;
}

function checkedNumber(id: string): string {
  const result = validate(invoiceNumberSchema, id);
  if (!result.success) {
    throw new UsageError(
      `${visible(id)} is neither an invoice of the ledger nor an invoice number; nothing was changed.`,
    );
  }
  return result.data;
}
