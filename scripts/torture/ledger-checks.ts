import { invoicesByNote } from './merchant.ts';
import type { Violation } from './guarantees.ts';
import type { Trial } from './trial.ts';
import { isMarked, isSettled, type PhaseView } from './views.ts';

// The checks of the ledger einvoice keeps beside its requests (`invoices export` at the end of a seed): one entry per
// invoice the service holds of the file's records, each as the service holds it, and none left uncertain that was
// answered or marked.

/** A row of the ledger's export, as far as the checker reads it. */
interface LedgerRow {
  kind?: string;
  invoiceNumber?: string | null;
  status?: string;
  refundStatus?: string | null;
  refundAmount?: string | null;
  source?: string | null;
}

/** The rows of `invoices export --format ndjson` (its stderr's line aside). */
function ledgerRows(trial: Trial): LedgerRow[] {
  return trial.ledger
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LedgerRow);
}

/** Every check of the ledger. */
export function checkLedger(trial: Trial, creates: PhaseView, refunds: PhaseView): Violation[] {
  const rows = ledgerRows(trial);
  return [...checkNeverBackwards(trial, rows, creates, refunds), ...checkOneEntry(trial, rows, refunds)];
}

/**
 * The ledger never holds uncertain what was answered or marked: an invoice the service holds once, nor a refund it
 * made, of the records einvoice sent; and once every run ended, nothing at all.
 */
function checkNeverBackwards(trial: Trial, rows: LedgerRow[], creates: PhaseView, refunds: PhaseView): Violation[] {
  const violations: Violation[] = [];
  const fail = (view: PhaseView, record: number, message: string) =>
    violations.push({
      guarantee: isMarked(view, record) ? 'marks-kept' : 'answer-kept',
      subject: view.name(record),
      message,
      evidence: [],
    });
  const byNote = invoicesByNote(trial.invoices);
  const blamed = new Set<LedgerRow>();
  for (const record of trial.creates) {
    const [invoice, ...others] = byNote.get(record.note) ?? [];
    if (!invoice || others.length > 0) continue;
    const source = `${trial.createFile}:${record.row}`;
    for (const row of rows) {
      if (row.status !== 'uncertain') continue;
      if (row.invoiceNumber === invoice.invoiceNumber) {
        blamed.add(row);
        fail(
          creates,
          record.record,
          `the service holds it as ${invoice.invoiceNumber}, which the ledger holds uncertain`,
        );
      } else if (row.source === source && isSettled(creates, record.record)) {
        blamed.add(row);
        fail(
          creates,
          record.record,
          `the service holds it as ${invoice.invoiceNumber}, and the ledger holds ${source} uncertain`,
        );
      }
    }
  }
  for (const refund of trial.refunds) {
    if (!refunds.done(refund.record, trial.invoices)) continue;
    const row = rows.find((candidate) => candidate.invoiceNumber === refund.invoiceNumber);
    if (row && (row.refundStatus === 'uncertain' || row.status === 'refund-uncertain')) {
      blamed.add(row);
      fail(
        refunds,
        refund.record,
        `the service refunded invoice ${refund.invoiceNumber}, which the ledger holds uncertain`,
      );
    }
  }
  if (trial.unfinished) return violations;
  // Every run ended at last with exit 0: each request was answered or settled by the merchant's word.
  for (const row of rows) {
    const uncertain =
      row.status === 'uncertain' ? 'uncertain' : row.refundStatus === 'uncertain' ? 'refund-uncertain' : '';
    if (blamed.has(row) || !uncertain) continue;
    violations.push({
      guarantee: 'answer-kept',
      subject: `the ledger's entry ${row.source ?? row.invoiceNumber ?? ''}`,
      message: `it is ${uncertain} after the last run ended with every record done`,
      evidence: [],
    });
  }
  return violations;
}

/**
 * One entry per invoice: the export holds as many invoices as the service holds of the file's records, one for each
 * (its number or, for one the merchant marked created, its source), and an invoice refunded through einvoice holds
 * the refund the service made.
 */
function checkOneEntry(trial: Trial, rows: LedgerRow[], refunds: PhaseView): Violation[] {
  if (trial.unfinished) return [];
  const violations: Violation[] = [];
  const fail = (subject: string, message: string) =>
    violations.push({ guarantee: 'one-entry', subject, message, evidence: [] });
  const invoices = rows.filter((row) => row.kind === 'single');
  const byNote = invoicesByNote(trial.invoices);
  const held = trial.creates.reduce((sum, record) => sum + (byNote.get(record.note) ?? []).length, 0);
  if (invoices.length !== held) {
    fail('the ledger', `its export holds ${invoices.length} invoices, and the service ${held} of the file's records`);
  }
  const seen = new Map<string, number>();
  for (const row of invoices) {
    for (const key of [row.invoiceNumber, row.source]) {
      if (key) seen.set(key, (seen.get(key) ?? 0) + 1);
    }
  }
  for (const [key, count] of seen) {
    if (count > 1) fail(`the ledger's entries of ${key}`, `${count} entries hold it`);
  }
  for (const refund of trial.refunds) {
    const row = invoices.find((candidate) => candidate.invoiceNumber === refund.invoiceNumber);
    if (!row || !refunds.done(refund.record, trial.invoices)) continue;
    if (row.refundStatus !== 'refunded' || Number(row.refundAmount) !== Number(refund.amount)) {
      fail(
        refunds.name(refund.record),
        `the service refunded ${refund.amount}, and the ledger holds its refund ${row.refundStatus ?? 'nowhere'} (${row.refundAmount ?? 'no amount'})`,
      );
    }
  }
  return violations;
}
