import { invoicesByNote } from './merchant.ts';
import type { Violation } from './guarantees.ts';
import type { Trial } from './trial.ts';
import { isMarked, isSettled, type PhaseView } from './views.ts';

// The checks of what einvoice wrote beside its requests: the ledger holds no answer or mark as uncertain, and no
// output holds the merchant's token.

/** A row of the ledger's export, as far as the checker reads it. */
interface LedgerRow {
  invoiceNumber?: string | null;
  status?: string;
  refundStatus?: string | null;
  source?: string | null;
}

/**
 * The ledger never holds uncertain what was answered or marked: an invoice the service holds once, nor a refund it
 * made, of the records einvoice sent.
 */
export function checkLedger(trial: Trial, creates: PhaseView, refunds: PhaseView): Violation[] {
  const rows: LedgerRow[] = [];
  for (const line of trial.ledger.split('\n')) {
    if (line.startsWith('{')) rows.push(JSON.parse(line) as LedgerRow);
  }
  const violations: Violation[] = [];
  const fail = (view: PhaseView, record: number, message: string) =>
    violations.push({
      guarantee: isMarked(view, record) ? 'marks-kept' : 'answer-kept',
      subject: view.name(record),
      message,
      evidence: [],
    });
  const byNote = invoicesByNote(trial.invoices);
  for (const record of trial.creates) {
    const [invoice, ...others] = byNote.get(record.note) ?? [];
    if (!invoice || others.length > 0) continue;
    const source = `${trial.createFile}:${record.row}`;
    for (const row of rows) {
      if (row.status !== 'uncertain') continue;
      if (row.invoiceNumber === invoice.invoiceNumber) {
        fail(
          creates,
          record.record,
          `the service holds it as ${invoice.invoiceNumber}, which the ledger holds uncertain`,
        );
      } else if (row.source === source && isSettled(creates, record.record)) {
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
      fail(
        refunds,
        refund.record,
        `the service refunded invoice ${refund.invoiceNumber}, which the ledger holds uncertain`,
      );
    }
  }
  return violations;
}

/** The token is in no output of einvoice: its stdout and stderr, journals, reports, and the ledger's export. */
export function checkSecrets(trial: Trial): Violation[] {
  const outputs: Array<[string, string]> = [['the ledger export', trial.ledger]];
  for (const run of trial.runs) {
    outputs.push(
      [`the stdout of run ${run.run}`, run.stdout],
      [`the stderr of run ${run.run}`, run.stderr],
      [`the journal after run ${run.run}`, run.journal],
      [`the --report of run ${run.run}`, run.reportFile ?? ''],
    );
  }
  return outputs
    .filter(([, text]) => text.includes(trial.token))
    .map(([where, text]) => ({
      guarantee: 'no-secret' as const,
      subject: where,
      message: 'it holds the merchant token',
      evidence: text
        .split('\n')
        .filter((line) => line.includes(trial.token))
        .slice(0, 3)
        .map((line) => line.replaceAll(trial.token, '<TOKEN>')),
    }));
}
