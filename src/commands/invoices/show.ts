import type { CommandContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { toJson } from '../../output/format.js';
import { historyJson, invoiceJson, refundJson, renderInvoiceShown, renderRefund } from '../../output/ledger-view.js';
import { openSession } from '../../session.js';
import type { ShowOptions } from './flags.js';
import { emptyLedgerNote, readLedger } from './ledger-of.js';

/**
 * `einvoice invoices show <id, number or reference>`: each invoice of the ledger it names, as sent, with its refunds
 * and every request that met it.
 */
export async function showInvoice(numberOrReference: string, options: ShowOptions, context: CommandContext) {
  const session = await openSession(options, context, 'ledger');
  const { terminal } = session;
  const ledger = await readLedger(session, context);
  let found;
  let refunds;
  try {
    found = ledger?.find(numberOrReference) ?? [];
    refunds = found.length === 0 ? (ledger?.refundsOf(numberOrReference) ?? []) : [];
  } finally {
    ledger?.close();
  }
  if (found.length === 0 && refunds.length > 0) {
    // A refund sent from here of an invoice created elsewhere (the dashboard, another machine).
    terminal.info(`Invoice ${numberOrReference} was not created from this machine; its refunds sent from here:`);
    terminal.data(
      terminal.json
        ? toJson(refunds.map(refundJson))
        : refunds.map((refund) => renderRefund(refund, terminal.out, session.profile.timeZone)).join('\n'),
    );
    return;
  }
  if (found.length === 0) {
    throw new UsageError(
      `No invoice with the id, number or reference ${numberOrReference} is in the ledger of ${session.profile.name}.`,
      {
        hint: ledger
          ? 'The ledger holds what einvoice sent from this machine and the journals imported into it: einvoice invoices list shows them with their ids; einvoice invoices import JOURNAL brings in the runs of other machines.'
          : emptyLedgerNote(session, context),
      },
    );
  }
  if (terminal.json) {
    terminal.data(
      toJson(
        found.map(({ invoice, body, refunds, history }) => ({
          ...invoiceJson(invoice),
          body,
          refunds: refunds.map(refundJson),
          history: history.map(historyJson),
        })),
      ),
    );
    return;
  }
  terminal.data(found.map((one) => renderInvoiceShown(one, terminal.out, session.profile.timeZone)).join('\n\n'));
}
