import { appendFile } from 'node:fs/promises';
import type { CommandContext } from '../../context.js';
import type { ShownReconcileRow } from '../../ledger/reconcile.js';
import { countOf, formatCount, formatDecimal } from '../../output/format.js';
import { cell, group, warningItems, workflowCommand } from '../../output/github-actions.js';
import { rowSentence, type Numbered, type ShownTotals } from '../../output/reconcile-view.js';
import { annotatedFile } from '../shared/bulk-github.js';

// A reconciliation as GitHub Actions shows it: a warning on each orders row to look at (folded in one group of the
// log), and the totals with those rows as Markdown on the run's page. Workflow commands go to stderr, so --json's
// stdout stays data.

/** How many rows the annotations and the run's page name; --report lists them all. */
export const listedInGithub = 100;

/** What the job is shown. */
export interface ReconcileInGithub {
  input: { name: string; absolutePath?: string };
  numbered: Numbered;
  environment: string;
  totals: ShownTotals;
  /** The first `listedInGithub` rows that are not matched. */
  discrepancies: readonly ShownReconcileRow[];
  /** How many rows are not matched in all. */
  discrepancyCount: number;
  /** What the merchant should know of the run as a whole (the ledger, the file written). */
  warnings: readonly string[];
}

/** Annotates the orders' rows to look at, and appends the reconciliation to `$GITHUB_STEP_SUMMARY`. */
export async function reconcileToGithub(run: ReconcileInGithub, context: CommandContext): Promise<void> {
  const file = annotatedFile(run.input.absolutePath, context);
  const warned = run.warnings.map((warning) => workflowCommand('warning', { title: 'einvoice reconcile' }, warning));
  const annotations = run.discrepancies.map((row) =>
    workflowCommand(
      row.class === 'refunded' ? 'notice' : 'warning',
      {
        file: row.row === null ? undefined : file,
        line: row.row === null || file === undefined ? undefined : row.row,
        title: `einvoice reconcile: ${row.class}`,
      },
      rowSentence(row, run.numbered),
    ),
  );
  const more = run.discrepancyCount - run.discrepancies.length;
  if (more > 0) annotations.push(`...and ${formatCount(more)} more: --report FILE lists them all.`);
  // A warning of the run as a whole stands outside the group, where the log shows it unfolded.
  for (const line of warned) context.stderr.write(`${line}\n`);
  if (annotations.length > 0) {
    context.stderr.write(`${group(`einvoice: ${countOf(run.discrepancyCount, 'row')} to look at`, annotations)}\n`);
  }
  if (context.env.GITHUB_STEP_SUMMARY) await appendFile(context.env.GITHUB_STEP_SUMMARY, stepSummary(run));
}

/** The reconciliation as Markdown: each class's count and total, then the rows to look at. */
function stepSummary(run: ReconcileInGithub): string {
  const lines = [
    `### einvoice: ${cell(run.input.name)} against the ledger of ${cell(run.environment)}`,
    '',
    '| Class | Rows | Amount |',
    '| --- | ---: | ---: |',
    ...Object.entries(run.totals).map(
      ([name, total]) => `| ${name} | ${formatCount(total.count)} | ${formatDecimal(total.amount)} |`,
    ),
  ];
  if (run.discrepancies.length > 0) {
    const where = run.numbered === 'row' ? 'Row' : 'Line';
    lines.push('', '#### Rows to look at', '', `| ${where} | Class | Reference | What |`, '| ---: | --- | --- | --- |');
    for (const row of run.discrepancies) {
      const reference = row.businessReference ?? row.ledgerReference ?? '';
      lines.push(`| ${row.row ?? '-'} | ${row.class} | ${cell(reference)} | ${cell(rowSentence(row, run.numbered))} |`);
    }
    const more = run.discrepancyCount - run.discrepancies.length;
    if (more > 0) lines.push('', `...and ${formatCount(more)} more: \`--report FILE\` lists them all.`);
  }
  if (run.warnings.length > 0) lines.push('', '#### Warnings', '', ...warningItems(run.warnings));
  return `${lines.join('\n')}\n\n`;
}
