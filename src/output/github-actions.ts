import type { BatchSummary, RecordResult, RecordResults, RecordStatus } from '../bulk/index.js';
import { EinvoiceError } from '../errors.js';
import { countOf, formatCount } from './format.js';
import { terminalSafe } from './safe-text.js';
import { earlierRow, recordName, recordTag } from './bulk-summary.js';

// A bulk run as GitHub Actions shows it: an annotation on the input's line for each record to act on, long lists
// folded in groups, and the summary as Markdown on the run's page. Workflow commands go to stderr, which the runner
// reads as it reads stdout, so --json's stdout stays data.

/** True inside a GitHub Actions job. */
export function inGithubActions(env: NodeJS.ProcessEnv): boolean {
  return env.GITHUB_ACTIONS === 'true';
}

/** A command's message: `%`, CR and LF escaped as the runner reads them back. */
export function escapeData(text: string): string {
  return terminalSafe(text).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A command's property value: as a message, plus `:` and `,`, which end a property. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** One workflow command line: `::name key=value,...::message`. */
export function workflowCommand(
  name: string,
  properties: Record<string, string | number | undefined>,
  message = '',
): string {
  const given = Object.entries(properties)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) => `${key}=${escapeProperty(String(value))}`);
  return `::${name}${given.length > 0 ? ` ${given.join(',')}` : ''}::${escapeData(message)}`;
}

/** Registers a secret read at run time, so the runner hides it wherever it would appear in the log. */
export function addMask(secret: string): string {
  return `::add-mask::${escapeData(secret)}`;
}

/** Records the merchant must act on: errors; records not sent on purpose that deserve a look: warnings. */
const errorStatuses: readonly RecordStatus[] = ['invalid', 'failed', 'uncertain'];
const warningStatuses: readonly RecordStatus[] = ['changed', 'duplicate'];

/** Where the records came from: the path the annotations name (relative to the workspace), and how lines count. */
export interface AnnotatedInput {
  /** Absent for stdin: the annotations then name no file. */
  file?: string;
  numbered: 'line' | 'row';
  /** What a message becomes where it is shown (the Action's inputs for flags: `wordsFor()`); as it is by default. */
  words?: (text: string) => string;
}

/** What happened to a record, with each of an invalid record's problems on a line of its own. */
function problemOf(result: RecordResult, separator = '\n'): string {
  const issues = result.issues?.map((issue) => `${issue.path}: ${issue.message}`) ?? [];
  return [result.error, ...issues].filter((line) => line !== undefined && line !== '').join(separator);
}

/** A record's warnings, one per line (or joined by `separator`). */
function warningsOf(result: RecordResult, separator = '\n'): string {
  return (result.warnings ?? []).map((warning) => `${warning.path}: ${warning.message}`).join(separator);
}

/** The annotation of each record to act on, in file order, then the records that deserve a look. */
export function recordAnnotations(results: RecordResults, input: AnnotatedInput): string[] {
  const words = input.words ?? ((text: string) => text);
  const annotate = (level: 'error' | 'warning', result: RecordResult) =>
    workflowCommand(
      level,
      {
        file: input.file,
        line: input.file === undefined ? undefined : result.line,
        title: `einvoice: ${result.status}`,
      },
      words(`${recordName(result, input.numbered)}: ${problemOf(result) || result.status}`),
    );
  // A record's warnings are annotated on its line whatever became of it: sent, held back, or refused.
  const warned = results.withWarnings().map((result) =>
    workflowCommand(
      'warning',
      {
        file: input.file,
        line: input.file === undefined ? undefined : result.line,
        title: 'einvoice: to look at',
      },
      words(`${recordName(result, input.numbered)}: ${warningsOf(result)}`),
    ),
  );
  return [
    ...results.withStatus(...errorStatuses).map((result) => annotate('error', result)),
    ...results.withStatus(...warningStatuses).map((result) => annotate('warning', result)),
    ...warned,
  ];
}

/**
 * The error a command ended with, as an annotation: the run's page then says why the step failed, which otherwise
 * only its log does (the lines of an error printed on stderr are no workflow command).
 */
export function errorAnnotation(error: unknown, words: (text: string) => string = (text) => text): string {
  const message =
    error instanceof EinvoiceError
      ? error.message
      : `Unexpected error: ${error instanceof Error ? error.message : String(error)}`;
  return workflowCommand('error', { title: 'einvoice' }, words(message));
}

/** Lines folded in the log under `title`. */
export function group(title: string, lines: readonly string[]): string {
  return [workflowCommand('group', {}, title), ...lines, '::endgroup::'].join('\n');
}

/** Text fit for a cell of a Markdown table: one line, no HTML, no Markdown markup. */
export function cell(text: string): string {
  return terminalSafe(text)
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]|#~]/g, (character) => `\\${character}`);
}

/** Rows the run's page lists; the report lists them all. */
const listedOnPage = 100;

/** A Markdown table of records, the first `listedOnPage` of them: where, status, and what `textOf` says. */
function recordTable(
  records: readonly RecordResult[],
  numbered: 'line' | 'row',
  heading: string,
  textOf: (result: RecordResult, separator: string) => string,
): string[] {
  const lines = [`| ${numbered === 'row' ? 'Row' : 'Record'} | Status | ${heading} |`, '| ---: | --- | --- |'];
  for (const result of records.slice(0, listedOnPage)) {
    const where = numbered === 'row' ? result.line : result.record;
    const tag = recordTag(result);
    const reference = tag === undefined ? '' : ` (${cell(tag)})`;
    lines.push(`| ${where ?? result.record}${reference} | ${result.status} | ${cell(textOf(result, '; '))} |`);
  }
  if (records.length > listedOnPage) {
    lines.push('', `...and ${formatCount(records.length - listedOnPage)} more: \`--report FILE\` lists them all.`);
  }
  return lines;
}

/** The run's summary as Markdown for `$GITHUB_STEP_SUMMARY`: the counts, the records to act on, what to do next. */
export function stepSummary(
  summary: BatchSummary,
  results: RecordResults,
  numbered: 'line' | 'row',
  input: string,
  next?: string,
  runWarnings: readonly string[] = [],
): string {
  const { words } = summary;
  const head = summary.dryRun
    ? `Dry run of ${countOf(summary.total, words.record)} from ${input} (${summary.environment}): nothing was sent`
    : `${countOf(summary.total, words.record)} from ${input} in ${summary.environment}`;
  const done = words.done;
  const [earlier, earlierCount] = earlierRow(summary);
  const counts: Array<[string, number]> = [
    ...(summary.dryRun ? [['valid, would be sent', summary.valid] as [string, number]] : []),
    [done, summary.created],
    [earlier, earlierCount],
    ['failed', summary.failed],
    ['uncertain (sent, outcome unknown)', summary.uncertain],
    ['invalid, not sent', summary.invalid],
    ['duplicates in file', summary.duplicatesInFile ?? 0],
    ['changed, not sent', summary.changed],
    ['not sent', summary.notSent],
  ];
  const lines = [
    `### einvoice: ${cell(head)}`,
    '',
    '| Records | Count |',
    '| --- | ---: |',
    ...counts
      .filter(([label, count]) => count > 0 || label === done)
      .map(([label, count]) => `| ${label} | ${formatCount(count)} |`),
  ];
  const attention = results.withStatus(...errorStatuses, ...warningStatuses);
  if (attention.length > 0) {
    lines.push('', '#### Records to look at', '', ...recordTable(attention, numbered, 'Problem', problemOf));
  }
  const warned = results.withWarnings();
  if (warned.length > 0 || runWarnings.length > 0) {
    lines.push('', '#### Warnings', '', ...warningItems(runWarnings));
    if (warned.length > 0 && runWarnings.length > 0) lines.push('');
    if (warned.length > 0) lines.push(...recordTable(warned, numbered, 'To look at', warningsOf));
  }
  if (next) lines.push('', `**What to do next:** ${cell(next)}`);
  return `${lines.join('\n')}\n\n`;
}

/** Warnings as the step summary lists them, one item each. */
export function warningItems(warnings: readonly string[]): string[] {
  return warnings.map((warning) => `- ${cell(warning)}`);
}

/** The step summary of a command that is no run over a file (one invoice, the ledger): the warnings it told. */
export function warningsSummary(warnings: readonly string[]): string {
  return `${['### einvoice: warnings', '', ...warningItems(warnings)].join('\n')}\n\n`;
}
