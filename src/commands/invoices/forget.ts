import { ledgerFile } from '../../config/paths.js';
import type { CommandContext } from '../../context.js';
import { formatCount } from '../../schemas/number-text.js';
import { openSession } from '../../session.js';
import type { ForgetOptions } from './flags.js';
import { instantOf, readLedger } from './ledger-of.js';

/** `einvoice invoices forget --before DATE`: removes from the ledger what was sent before that day, for good. */
export async function forgetInvoices(options: ForgetOptions, context: CommandContext): Promise<void> {
  const session = await openSession(options, context, 'ledger');
  const { profile, zone } = session;
  const before = instantOf('--before', options.before, { timeZone: profile.timeZone, dayRead: zone.dayRead }, 'start');
  await zone.tell();
  const ledger = await readLedger(session, context);
  if (!ledger) {
    session.terminal.info(`Nothing to forget: ${ledgerFile(session.profile.name, context.env)} does not exist.`);
    return;
  }
  try {
    const removed = ledger.forget(before);
    session.terminal.info(
      `Removed ${formatCount(removed.invoices)} invoices and ${formatCount(removed.refunds)} refunds sent before ` +
        `${options.before} from the ledger of ${session.profile.name}.`,
    );
  } finally {
    ledger.close();
  }
}
