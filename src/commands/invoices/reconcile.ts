import type { CommandContext } from '../../context.js';
import { DiscrepancyError, UsageError } from '../../errors.js';
import {
  reconcileClasses,
  shownRow,
  shownTotals,
  type ReconcileClass,
  type ShownReconcileRow,
} from '../../ledger/reconcile.js';
import { ReconcileStore } from '../../ledger/reconcile-store.js';
import { inGithubActions } from '../../output/github-actions.js';
import { countOf } from '../../output/format.js';
import {
  discrepancyCount,
  discrepancyLines,
  reconcileJsonLines,
  renderTotals,
  type Numbered,
} from '../../output/reconcile-view.js';
import { writeLines } from '../../output/write-lines.js';
import { nearestName } from '../../schemas/nearest-name.js';
import { openSession, type Session } from '../../session.js';
import { readInvoiceFile, type ManyInvoices } from '../../sheet/index.js';
import { csvFlagsGiven } from '../shared/bulk-flags.js';
import type { ReconcileOptions } from './flags.js';
import { emptyLedgerNote, filterOf, readLedger } from './ledger-of.js';
import { readOrders, type OrdersReading } from './reconcile-orders.js';

/** How many rows to look at a terminal shows; a pipe, --json and --report get every one. */
const terminalRows = 50;

/**
 * `einvoice invoices reconcile ORDERS`: the merchant's orders matched against the ledger by businessReference, each
 * row classed; the totals and the rows to look at printed, written to --report and --emit-missing, shown to GitHub
 * Actions. It reads this machine's files only: no request is sent, no session to the service is opened.
 */
export async function reconcileOrders(
  orders: string,
  options: ReconcileOptions,
  context: CommandContext,
): Promise<void> {
  const failOn = failOnOf(options.failOn ?? []);
  if (options.dateColumn !== undefined && options.emitMissing === undefined) {
    throw new UsageError('--date-column applies only with --emit-missing: the orders are matched by reference alone.', {
      hint: "It names the column whose date becomes each invoice's sendingDate in the --emit-missing file.",
    });
  }
  const session = await openSession(options, context, 'ledger');
  const { terminal, profile } = session;
  const filter = await filterOf(options, session);
  const input = await ordersInput(orders, options, context);
  const store = await ReconcileStore.open();
  let ledger: Awaited<ReturnType<typeof readLedger>>;
  try {
    const numbered = await asOrders(input.name, readOrders(input, readingOf(options, profile.timeZone), store));
    ledger = await readLedger(session, context);
    if (ledger) store.addInvoices(ledger.invoicesToReconcile(filter));
    const earlier = ledger?.invoicesOfEarlierNumberings(filter) ?? 0;
    const totals = shownTotals(store.classify());
    const rows = (only?: { discrepancies?: boolean; limit?: number }) => mapped(store.rows(only), shownRow);
    const { counts } = store;
    terminal.info(
      `Compared ${countOf(counts.orders, 'order')} of ${input.name} with ${countOf(counts.invoices, 'invoice')} of the ` +
        `ledger of ${profile.name}${windowText(options)}.`,
    );
    // What a person would read on a terminal, and a CI job's page shows too.
    const warnings = ledgerWarnings(session, context, ledger !== undefined);
    if (earlier > 0) {
      terminal.info(
        `Left out ${countOf(earlier, 'invoice')} of a sandbox since reset or replaced: its invoices are not the ` +
          "service's any more.",
      );
    }
    if (terminal.json) {
      const compared = {
        orders: input.name,
        orderCount: counts.orders,
        environment: profile.name,
        invoiceCount: counts.invoices,
        since: filter.since ?? null,
        until: filter.until ?? null,
        currency: profile.currency ?? null,
      };
      await writeLines(context.stdout, reconcileJsonLines(compared, totals, rows()));
    } else {
      await printRows(session, context, totals, numbered, rows);
    }
    if (options.report !== undefined) {
      const { writeReconcileReport } = await import('./reconcile-report.js');
      await writeReconcileReport(options.report, rows(), { input: input.name, numbered, totals }, context);
    }
    if (options.emitMissing !== undefined) {
      warnings.push(...(await emitMissing(options.emitMissing, session, context, store)));
    }
    for (const warning of warnings) terminal.warn(warning);
    if (inGithubActions(context.env)) {
      const { listedInGithub, reconcileToGithub } = await import('./reconcile-github.js');
      const discrepancies = [...rows({ discrepancies: true, limit: listedInGithub })];
      await reconcileToGithub(
        {
          input,
          numbered,
          environment: profile.name,
          totals,
          discrepancies,
          discrepancyCount: discrepancyCount(totals),
          warnings,
        },
        context,
      );
    }
    const held = failOn.filter((name) => totals[name].count > 0);
    if (held.length > 0) {
      throw new DiscrepancyError(
        `--fail-on: ${held.map((name) => `${name} has ${countOf(totals[name].count, 'row')}`).join('; ')}.`,
      );
    }
  } finally {
    ledger?.close();
    await store.close();
  }
}

/** How the orders are read: the columns the flags name, the sheet's flags, and whether their records are kept. */
function readingOf(options: ReconcileOptions, timeZone: string): OrdersReading {
  return {
    names: { reference: options.referenceColumn, amount: options.amountColumn, date: options.dateColumn },
    sheet: {
      delimiter: options.delimiter,
      dateFormat: options.dateFormat,
      ignoreColumns: options.ignoreColumn,
      sheet: options.sheet,
      timeZone,
    },
    keepRecords: options.emitMissing !== undefined,
  };
}

/** What the merchant should know of the ledger compared with: none at all, or one that records nothing new. */
function ledgerWarnings(session: Session, context: CommandContext, found: boolean): string[] {
  if (!found) return [emptyLedgerNote(session, context)];
  if (session.profile.ledger) return [];
  return [
    `The ledger of ${session.profile.name} is off (ledger: false in the profile): what einvoice sends there is not ` +
      'recorded, so it holds only what was recorded before.',
  ];
}

/** On stdout, each class's totals, then the rows to look at (the first on a terminal, every one on a pipe). */
async function printRows(
  session: Session,
  context: CommandContext,
  totals: ReturnType<typeof shownTotals>,
  numbered: Numbered,
  rows: (only?: { discrepancies?: boolean; limit?: number }) => Iterable<ShownReconcileRow>,
): Promise<void> {
  const { terminal, profile } = session;
  terminal.data(renderTotals(totals, terminal.out, profile.currency));
  const count = discrepancyCount(totals);
  if (count === 0) {
    if (totals.matched.count > 0) terminal.success('Every order has its invoice, once, for the amount ordered.');
    return;
  }
  const limit = context.stdout.isTTY ? terminalRows : undefined;
  terminal.data('');
  await writeLines(
    context.stdout,
    discrepancyLines(() => rows({ discrepancies: true, limit }), terminal.out, numbered),
  );
  if (limit !== undefined && count > limit) {
    terminal.info(
      `The first ${limit} of ${countOf(count, 'row')} to look at are shown; --json or --report FILE lists every row ` +
        '(a pipe gets every one).',
    );
  }
}

/** Writes the orders without an invoice to `path`; the warning of what is left to fill before they are sent, if any. */
async function emitMissing(
  path: string,
  session: Session,
  context: CommandContext,
  store: ReconcileStore,
): Promise<string[]> {
  const { writeMissingOrders } = await import('./reconcile-emit.js');
  const { count, empty } = await writeMissingOrders(path, () => store.notInvoiced(), context);
  session.terminal.info(
    `Wrote ${countOf(count, 'order')} without an invoice to ${path}` +
      (count > 0 ? `: einvoice create single --file ${path} sends ${count === 1 ? 'it' : 'them'}.` : '.'),
  );
  if (empty.length === 0) return [];
  const fields = empty.map(({ field, rows }) => `${field} (${countOf(rows, 'row')})`).join(', ');
  return [
    `${path} leaves fields an invoice needs empty: ${fields}. Fill them (or give them in the profile's defaults) ` +
      'before sending it.',
  ];
}

/** The orders file, as the sheet readers read it: many records, never one JSON object. */
async function ordersInput(orders: string, options: ReconcileOptions, context: CommandContext): Promise<ManyInvoices> {
  const input = await asOrders(orders, readInvoiceFile(orders, context, options.format, options.encoding));
  if (input.kind === 'one') {
    throw new UsageError(`${orders} holds one JSON object: the orders are many records; nothing was compared.`, {
      hint: 'Give a JSON array of orders, NDJSON (one order per line), a CSV sheet or an .xlsx workbook.',
    });
  }
  const misplaced = csvFlagsGiven(options, input.format);
  if (misplaced.length > 0) {
    const sheet = misplaced.includes('--sheet') ? 'an .xlsx workbook' : 'a CSV file';
    throw new UsageError(`${misplaced.join(', ')} ${misplaced.length === 1 ? 'applies' : 'apply'} only to ${sheet}.`, {
      hint: 'A file ending in .csv is read as CSV, one ending in .xlsx as a workbook; --format names it for any other.',
    });
  }
  return input;
}

/**
 * The sheet readers' refusals name their input as `--file` gives it to a bulk run; here it is the orders argument.
 */
async function asOrders<T>(name: string, reading: Promise<T>): Promise<T> {
  try {
    return await reading;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const own = (text: string) => text.replaceAll(`--file ${name}`, name).replaceAll('--file ', '');
    throw new UsageError(own(error.message), {
      issues: error.issues,
      ...(error.hint ? { hint: own(error.hint) } : {}),
    });
  }
}

/** The classes `--fail-on` names (comma-separated, repeatable); an unknown one is refused, naming the valid. */
function failOnOf(texts: readonly string[]): ReconcileClass[] {
  const names = texts
    .flatMap((text) => text.split(','))
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const known = new Set<string>(reconcileClasses);
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new UsageError(`--fail-on names no class ${unknown.map((name) => `"${name}"`).join(', ')}.`, {
      issues: unknown.map((name) => {
        const meant = nearestName(name, reconcileClasses);
        return { path: '--fail-on', message: `${name} is not a class${meant ? `; did you mean ${meant}?` : ''}` };
      }),
      hint: `The classes: ${reconcileClasses.join(', ')}.`,
    });
  }
  return [...new Set(names)] as ReconcileClass[];
}

function windowText(options: Pick<ReconcileOptions, 'since' | 'until'>): string {
  if (options.since !== undefined && options.until !== undefined) return `, sent ${options.since} to ${options.until}`;
  if (options.since !== undefined) return `, sent on or after ${options.since}`;
  return options.until !== undefined ? `, sent on or before ${options.until}` : '';
}

function* mapped<T, U>(items: Iterable<T>, map: (item: T) => U): Generator<U> {
  for (const item of items) yield map(item);
}
