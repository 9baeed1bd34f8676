import type { CommandContext } from '../../context.js';
import { toJson } from '../../output/format.js';
import { invoiceJson, renderLedgerTable } from '../../output/ledger-view.js';
import { writeLines } from '../../output/write-lines.js';
import { formatCount } from '../../schemas/number-text.js';
import { openSession } from '../../session.js';
import type { LedgerInvoice } from '../../ledger/ledger.js';
import type { ListOptions } from './flags.js';
import { emptyLedgerNote, filterOf, readLedger } from './ledger-of.js';

/** How many invoices a terminal shows without --limit or --all; a pipe gets every one. */
const terminalLimit = 20;

/** `einvoice invoices list`: the ledger's invoices, newest first, as a table, JSON or NDJSON on stdout. */
export async function listInvoices(options: ListOptions, context: CommandContext): Promise<void> {
  const session = await openSession(options, context, 'ledger');
  const { terminal, profile } = session;
  const filter = await filterOf(options, session);
  const limit = options.all ? undefined : (options.limit ?? (context.stdout.isTTY ? terminalLimit : undefined));
  const ledger = await readLedger(session, context);
  let shown = 0;
  let uncertain = 0;
  let more = false;
  const counted = function* (rows: Iterable<LedgerInvoice>): Generator<LedgerInvoice> {
    for (const row of rows) {
      if (limit !== undefined && shown === limit) {
        more = true;
        return;
      }
      shown += 1;
      if (row.status === 'uncertain' || row.status === 'refund-uncertain') uncertain += 1;
      yield row;
    }
  };
  try {
    // One more than the limit is read, to know whether there are more.
    const rows = counted(ledger ? ledger.list(filter, limit === undefined ? undefined : limit + 1) : []);
    if (options.ndjson) {
      await writeLines(
        context.stdout,
        mapped(rows, (row) => JSON.stringify(invoiceJson(row))),
      );
    } else if (terminal.json) {
      await writeLines(context.stdout, jsonArray(mapped(rows, (row) => toJson(invoiceJson(row)))));
    } else {
      const all = [...rows];
      if (all.length > 0) terminal.data(renderLedgerTable(all, terminal.out, profile.timeZone));
    }
  } finally {
    ledger?.close();
  }
  if (!ledger) terminal.info(emptyLedgerNote(session, context));
  else if (shown === 0) terminal.info('No invoice of the ledger matches.');
  if (more) {
    terminal.info(
      `The ${formatCount(shown)} newest are shown; --all lists every one, --limit N the N newest (a pipe gets every one).`,
    );
  }
  if (uncertain > 0) {
    terminal.warn(
      `${formatCount(uncertain)} may or may not have been done (uncertain): look each up in the merchant dashboard ` +
        'before sending it again; einvoice invoices show ID (as listed) says what is safe.',
    );
  }
}

function* mapped<T, U>(items: Iterable<T>, map: (item: T) => U): Generator<U> {
  for (const item of items) yield map(item);
}

/** The lines of a JSON array whose items are `items` (each already JSON), written as they come. */
function* jsonArray(items: Iterable<string>): Generator<string> {
  let previous: string | undefined;
  yield '[';
  for (const item of items) {
    if (previous !== undefined) yield `  ${previous},`;
    previous = item.replace(/\n/g, '\n  ');
  }
  if (previous !== undefined) yield `  ${previous}`;
  yield ']';
}
