import type { ChalkInstance } from 'chalk';
import type { LedgerInvoice, LedgerRefund, LedgerStep } from '../ledger/ledger.js';
import { minorToText } from '../schemas/money.js';
import { formatDecimal } from '../schemas/number-text.js';
import { calendarDateIn, wallClockIn } from '../schemas/time-zone.js';
import { terminalSafe } from './safe-text.js';

// The ledger's invoices as the merchant reads them: a table, one invoice in full, and the JSON a script reads. Text
// from the ledger was typed by the merchant or answered by the service: it is printed without escape sequences.

/** What the next step names an entry by: its id, its number, and where a bulk run read it. */
type Named = Pick<LedgerInvoice, 'id' | 'invoiceNumber' | 'businessReference' | 'via' | 'sourceFile' | 'sourceLine'>;

/** The safe next step for an invoice or refund whose outcome is unknown. */
export function nextStepOf(status: string, invoice: Named): string | undefined {
  const { id, invoiceNumber, businessReference } = invoice;
  // A bulk run's record is settled for its journal too, by its row: a rerun of the file then sends nothing twice.
  const fromFile =
    (invoice.via === 'bulk' || invoice.via === 'import') && invoice.sourceFile !== null && invoice.sourceLine !== null
      ? invoice.sourceFile
      : undefined;
  if (status === 'uncertain') {
    const word =
      `then say what you found: einvoice invoices settle ${id} --created (or --not-created)` +
      (fromFile
        ? `, and for a rerun of ${fromFile}: --mark-created ${invoice.sourceLine} (or --mark-not-created ${invoice.sourceLine})`
        : '');
    return businessReference === null
      ? `It may have been created: look it up in the merchant dashboard before sending it again (it has no businessReference, so sending it again may create a second one), ${word}.`
      : `It may have been created: look it up in the merchant dashboard; sending it again is safe, the service refuses a second invoice with businessReference ${businessReference}. Or ${word}.`;
  }
  if (status === 'refund-uncertain') {
    const number = invoiceNumber ?? 'NUMBER';
    return (
      `Its refund may have been made: look invoice ${number} up in the merchant dashboard, then say what you found: ` +
      `einvoice invoices settle ${number} --refunded (or --not-refunded); a rerun of its refund file takes ` +
      `--mark-refunded ${number} (or --mark-not-refunded ${number}). It is never sent again until you do.`
    );
  }
  return undefined;
}

/** An invoice of the ledger as --json and --ndjson print it: amounts exact, in minor units beside the decimal. */
export function invoiceJson(invoice: LedgerInvoice): Record<string, unknown> {
  const nextStep = nextStepOf(invoice.status, invoice);
  return {
    id: invoice.id,
    invoiceNumber: invoice.invoiceNumber,
    kind: invoice.kind,
    status: invoice.status,
    businessReference: invoice.businessReference,
    customer: { name: invoice.customerName, mobile: invoice.customerMobile, email: invoice.customerEmail },
    amount: amountText(invoice.amountMinor),
    amountMinor: invoice.amountMinor,
    currency: invoice.currency,
    sendingDate: invoice.sendingDate,
    expiryDate: invoice.expiryDate,
    sentAt: invoice.sentAt,
    error: invoice.error,
    decided: invoice.decided,
    source: {
      via: invoice.via,
      file: invoice.sourceFile,
      line: invoice.sourceLine,
      journal: invoice.journal,
      run: invoice.run,
    },
    service: invoice.service,
    ...(nextStep ? { nextStep } : {}),
  };
}

/** A refund of the ledger as --json prints it. */
export function refundJson(refund: LedgerRefund): Record<string, unknown> {
  return {
    status: refund.status,
    amount: amountText(refund.amountMinor),
    amountMinor: refund.amountMinor,
    currency: refund.currency,
    reason: refund.reason,
    orderReferenceNumber: refund.orderReference,
    sentAt: refund.sentAt,
    answeredAt: refund.answeredAt,
    error: refund.error,
    decided: refund.decided,
    source: {
      via: refund.via,
      file: refund.sourceFile,
      line: refund.sourceLine,
      journal: refund.journal,
      run: refund.run,
    },
  };
}

/** The invoices as a table: when and what was sent, its answer, to whom and for how much, and where from. */
export function renderLedgerTable(invoices: readonly LedgerInvoice[], colors: ChalkInstance, timeZone: string): string {
  const header = ['Id', 'Sent', 'Number', 'Kind', 'Status', 'Reference', 'Customer', 'Amount', 'Source'];
  const rows = invoices.map((invoice) =>
    [
      invoice.id,
      `${calendarDateIn(new Date(invoice.sentAt), timeZone)}`,
      invoice.invoiceNumber ?? '-',
      invoice.kind,
      invoice.status,
      invoice.businessReference ?? '-',
      [invoice.customerName, invoice.customerMobile].filter(Boolean).join(' '),
      [formatted(invoice.amountMinor), invoice.currency].filter(Boolean).join(' '),
      invoice.source,
    ].map((cell) => terminalSafe(cell)),
  );
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  const statusColor = (row: string[]) =>
    row[4] === 'uncertain' || row[4] === 'refund-uncertain'
      ? colors.yellow(line(row))
      : row[4] === 'refused'
        ? colors.red(line(row))
        : line(row);
  return [colors.bold(line(header)), ...rows.map(statusColor)].join('\n');
}

/** One invoice in full: its answer, the request as sent, its refunds and where it came from. */
export function renderInvoiceShown(
  found: { invoice: LedgerInvoice; body: unknown; refunds: readonly LedgerRefund[]; history: readonly LedgerStep[] },
  colors: ChalkInstance,
  timeZone: string,
): string {
  const { invoice, body, refunds, history } = found;
  const label = (text: string) => text.padEnd(labelWidth);
  const lines = [
    `${label('Id')}${invoice.id}`,
    `${label('Invoice')}${invoice.invoiceNumber ?? 'no number (the service did not answer with one)'}`,
    `${label('Status')}${invoice.status}${invoice.error ? ` (${invoice.error})` : ''}`,
    ...(invoice.decided ? [`${label('Decided')}${invoice.decided}`] : []),
    `${label('Kind')}${invoice.kind}`,
    `${label('Amount')}${[formatted(invoice.amountMinor), invoice.currency].filter(Boolean).join(' ')}`,
    `${label('Sent')}${localTime(invoice.sentAt, timeZone)}`,
    `${label('Source')}${invoice.source}${invoice.via === 'bulk' || invoice.via === 'import' ? ` (${invoice.via})` : ''}`,
    ...(invoice.journal ? [`${label('Journal')}${invoice.journal} (run ${invoice.run ?? '-'})`] : []),
    ...(invoice.service ? [`${label('Service')}${invoice.service}`] : []),
  ];
  const nextStep = nextStepOf(invoice.status, invoice);
  if (nextStep) lines.push(`${label('Next step')}${nextStep}`);
  for (const refund of refunds) lines.push(`${label('Refund')}${refundLine(refund, timeZone)}`);
  // Every request that met it: the first, a later run that found it already there, an import, the merchant's word.
  if (history.length > 1 || history.some((step) => step.marked)) {
    for (const step of history) lines.push(`${label('History')}${stepLine(step, timeZone)}`);
  }
  // Each line without escape sequences; the body's JSON escapes them itself.
  const shown = lines
    .map((line) => terminalSafe(line))
    .map((line) => colors.dim(line.slice(0, labelWidth)) + line.slice(labelWidth));
  return [...shown, colors.dim('As sent:'), JSON.stringify(body, null, 2)].join('\n');
}

const labelWidth = 14;

/** A refund in one line: its answer, amount, when, reason and order, and what was decided or went wrong. */
function refundLine(refund: LedgerRefund, timeZone: string): string {
  return (
    `${refund.status} ${formatted(refund.amountMinor)}${refund.currency ? ` ${refund.currency}` : ''}, ` +
    `${localTime(refund.sentAt, timeZone)}, reason: ${refund.reason ?? '-'}, order ${refund.orderReference ?? '-'}` +
    `${refund.decided ? ` (${refund.decided})` : refund.error ? ` (${refund.error})` : ''}`
  );
}

/** A request that met an entry, in one line: when, what it learnt, from where. */
function stepLine(step: LedgerStep, timeZone: string): string {
  const why = step.decided ?? step.error;
  return (
    `${localTime(step.at, timeZone)} ${step.status}${why ? ` (${why})` : ''}, ${step.source}` +
    `${step.run ? ` (run ${step.run})` : ''}`
  );
}

/** The history of an entry as --json prints it. */
export function historyJson(step: LedgerStep): Record<string, unknown> {
  return {
    sentAt: step.sentAt,
    at: step.at,
    status: step.status,
    byMerchant: step.marked === 1,
    error: step.error,
    decided: step.decided,
    source: { via: step.via, file: step.sourceFile, line: step.sourceLine, journal: step.journal, run: step.run },
  };
}

/** A refund of an invoice the ledger does not hold, as `show` prints it. */
export function renderRefund(refund: LedgerRefund, colors: ChalkInstance, timeZone: string): string {
  const next = nextStepOf(refund.status === 'uncertain' ? 'refund-uncertain' : refund.status, {
    id: '',
    invoiceNumber: refund.invoiceNumber,
    businessReference: null,
    via: refund.via,
    sourceFile: refund.sourceFile,
    sourceLine: refund.sourceLine,
  });
  return [
    `${colors.dim('Refund'.padEnd(labelWidth))}${terminalSafe(refundLine(refund, timeZone))}`,
    ...(next ? [`${colors.dim('Next step'.padEnd(labelWidth))}${next}`] : []),
  ].join('\n');
}

/** An instant as the merchant's clock shows it (`2026-11-28 00:44:13 Africa/Cairo`); --json keeps the instant. */
function localTime(instant: string, timeZone: string): string {
  const wall = wallClockIn(new Date(instant), timeZone).toISOString();
  return `${wall.slice(0, 10)} ${wall.slice(11, 19)} ${timeZone}`;
}

function amountText(minor: number | null): string | null {
  return minor === null ? null : minorToText(BigInt(minor));
}

function formatted(minor: number | null): string {
  return minor === null ? '-' : formatDecimal(minorToText(BigInt(minor)));
}
