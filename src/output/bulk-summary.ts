import type { ChalkInstance } from 'chalk';
import type { BatchSummary, RecordResult, RecordResults } from '../bulk/index.js';
import { countOf, formatCount } from './format.js';
import { terminalSafe } from './safe-text.js';

// The summary of a bulk run as the merchant reads it; the counting itself is src/bulk/summary.ts.

const listed = 20;

/** The summary as the merchant reads it on stderr, with the records that need a look. */
export function renderSummary(
  summary: BatchSummary,
  results: RecordResults,
  chalk: ChalkInstance,
  numbered: 'line' | 'row' = 'line',
): string {
  const seconds = (summary.durationMs / 1000).toFixed(1);
  const { words } = summary;
  const head = summary.dryRun
    ? `Dry run of ${countOf(summary.total, words.record)} (${summary.environment}): nothing was sent.`
    : `${countOf(summary.total, words.record)} in ${summary.environment}, ${seconds} s:`;
  const rows: Array<[string, number, string?]> = summary.dryRun
    ? [['valid, would be sent', summary.valid]]
    : [
        [words.done, summary.created],
        earlierRow(summary),
        ['failed', summary.failed, summary.failed === 0 ? undefined : words.retry],
        ['uncertain', summary.uncertain, summary.uncertain > 0 ? 'sent, outcome unknown: check them' : undefined],
      ];
  if (summary.dryRun && summary.createdEarlier > 0) {
    rows.push([`${words.done} by an earlier run`, summary.createdEarlier]);
  }
  if (summary.dryRun && summary.uncertain > 0) {
    rows.push(['uncertain, not sent again', summary.uncertain, 'an earlier run sent them, outcome unknown']);
  }
  if (summary.alreadyExpired) {
    const label = summary.dryRun ? 'would be sent expired' : 'sent already expired';
    rows.push([label, summary.alreadyExpired, 'their expiry had passed (--allow-expired)']);
  }
  rows.push(['skipped invalid', summary.invalid]);
  if (summary.duplicatesInFile !== undefined) rows.push(['duplicates in file', summary.duplicatesInFile]);
  if (summary.changed > 0) rows.push(['changed, not sent', summary.changed, 'edited after an earlier run sent them']);
  if (summary.notSent > 0) rows.push(['not sent', summary.notSent, 'the run stopped first']);

  // Labels get at least 22 columns, or two spaces beyond the longest (a dry run of a rerun has a long one).
  const labelWidth = Math.max(22, ...rows.map(([label]) => label.length + 2));
  const width = Math.max(...rows.map(([, count]) => formatCount(count).length));
  const lines = [chalk.bold(head)];
  for (const [label, count, note] of rows) {
    const text = `  ${label.padEnd(labelWidth)}${formatCount(count).padStart(width)}${note ? chalk.dim(`  (${note})`) : ''}`;
    lines.push(count > 0 && (label === 'failed' || label === 'uncertain') ? chalk.yellow(text) : text);
  }
  const attention = results.withStatus('failed', 'uncertain', 'changed');
  if (attention.length > 0) {
    lines.push('Records to look at:');
    for (const result of attention.slice(0, listed)) lines.push(`  ${describe(result, numbered)}`);
    if (attention.length > listed) lines.push(`  ...and ${attention.length - listed} more (--report lists them all)`);
  }
  if (summary.journal) lines.push(chalk.dim(`Journal: ${summary.journal}`));
  return lines.join('\n');
}

/**
 * The records done before this run sent: those the service already held, by their reference, with why; a kind
 * without a reference (a refund) has none the service could hold, so its row counts those of earlier runs alone.
 */
export function earlierRow(summary: BatchSummary): [string, number, string?] {
  return summary.words.reference === undefined
    ? [`${summary.words.done} by an earlier run`, summary.createdEarlier]
    : ['already existed', summary.alreadyExisted + summary.createdEarlier, alreadyExistedNote(summary)];
}

/**
 * Why records already existed, in parts that add up to the row's count: created by an earlier run, most likely by an
 * attempt whose answer was lost, or found in the service with no attempt of einvoice's journaled (made elsewhere, or
 * by a run whose journal lost the entry to a kill or a full disk).
 */
function alreadyExistedNote(summary: BatchSummary): string | undefined {
  const unexplained = summary.alreadyExisted - summary.alreadyExistedAfterLostAnswer;
  const notes = [
    summary.createdEarlier > 0 ? `${formatCount(summary.createdEarlier)} created by an earlier run` : undefined,
    summary.alreadyExistedAfterLostAnswer > 0
      ? `${formatCount(summary.alreadyExistedAfterLostAnswer)} most likely created by an attempt whose answer was lost`
      : undefined,
    unexplained > 0 ? `${formatCount(unexplained)} found in the service, no attempt journaled` : undefined,
  ].filter((note) => note !== undefined);
  return notes.length > 0 ? notes.join('; ') : undefined;
}

function describe(result: RecordResult, numbered: 'line' | 'row'): string {
  // The error may be the service's own words.
  return terminalSafe(`${recordName(result, numbered)}: ${result.status}: ${result.error ?? ''}`);
}

/**
 * What a record is called where the merchant acts on it: a spreadsheet's by its row, any other by its place in the
 * file, with what finds it in the service (its businessReference, or the invoice a refund is of).
 */
export function recordName(result: RecordResult, numbered: 'line' | 'row'): string {
  const where = numbered === 'row' && result.line !== undefined ? `row ${result.line}` : `record ${result.record}`;
  const tag = recordTag(result);
  return tag === undefined ? where : `${where} (${tag})`;
}

/**
 * A record's businessReference, or the invoice it refunds (or was created as); undefined for neither, and for an
 * edited record, whose invoice is its earlier version's (its error names it).
 */
export function recordTag(result: RecordResult): string | undefined {
  if (result.businessReference !== undefined) return result.businessReference;
  return result.invoiceNumber === undefined || result.status === 'changed'
    ? undefined
    : `invoice ${result.invoiceNumber}`;
}
