import type { KindWords } from './kind.js';
import type { RecordResult, RecordStatus } from './results.js';
import { visible } from '../schemas/visible-text.js';

type Numbered = 'line' | 'row';

// `--report FILE.xml`: the run as JUnit XML, the test report GitLab, Jenkins and Azure DevOps show per test. Each
// record is a test case; the records the merchant must act on are failures, with their message.

/** What the report is about: the suite's name and the run's length. */
export interface JunitSuite {
  /** The input's name, as given to --file. */
  input: string;
  /** The kind's words: the command that sent the records names the suite. */
  words: KindWords;
  durationMs: number;
  timestamp: Date;
  /** The warnings of the run as a whole, in the suite's own `system-out`. */
  warnings?: readonly string[];
}

/** Not created, and needs the merchant: a failure of its test case. */
const failing: ReadonlySet<RecordStatus> = new Set(['failed', 'uncertain', 'invalid', 'changed']);
/** Not sent on purpose, or not reached: neither a pass nor a failure. */
const skipped: ReadonlySet<RecordStatus> = new Set(['duplicate', 'not-sent', 'pending']);

/**
 * Text fit for XML 1.0: control and invisible characters shown as `\u0007` (a report is read, not a terminal), the
 * characters XML cannot hold dropped, markup characters escaped.
 */
export function xmlText(text: string): string {
  return visible(text)
    .replace(/[\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** What a record is called in the report: `row 3 (INV-7)`, `row 4 (invoice 1000031)` (a refund), `record 2 (line 4)`. */
function caseName(result: RecordResult, numbered: Numbered): string {
  const where =
    result.line === undefined
      ? `record ${result.record}`
      : numbered === 'row'
        ? `row ${result.line}`
        : `record ${result.record} (line ${result.line})`;
  // As the summary names it (output's recordTag()): the invoice a refund is of, which --mark-refunded takes.
  const tag =
    result.businessReference ??
    (result.invoiceNumber !== undefined && result.status !== 'changed' ? `invoice ${result.invoiceNumber}` : undefined);
  return tag === undefined ? where : `${where} (${tag})`;
}

/** Why a record failed, in one line, and every issue on a line of its own for the failure's body (as XML). */
function failureOf(result: RecordResult): { message: string; details: string } {
  const issues = result.issues?.map((issue) => `${issue.path}: ${issue.message}`) ?? [];
  const message = result.error ?? (issues.join('; ') || result.status);
  const details = issues.length > 0 ? issues.map(xmlText).join('\n') : xmlText(message);
  return { message: xmlText(`${result.status}: ${message}`), details };
}

/** The lines of the report: the suite's counts first, so the records are read twice (they are not kept). */
export function* junitLines(
  results: Iterable<RecordResult>,
  suite: JunitSuite,
  numbered: Numbered = 'line',
): Generator<string> {
  let tests = 0;
  let failures = 0;
  let skips = 0;
  for (const { status } of results) {
    tests += 1;
    if (failing.has(status)) failures += 1;
    else if (skipped.has(status)) skips += 1;
  }
  const name = xmlText(`${suite.words.command} ${suite.input}`);
  const counts = `tests="${tests}" failures="${failures}" errors="0" skipped="${skips}"`;
  const time = (suite.durationMs / 1000).toFixed(3);
  yield '<?xml version="1.0" encoding="UTF-8"?>';
  yield `<testsuites name="${name}" ${counts} time="${time}">`;
  yield `  <testsuite name="${name}" ${counts} time="${time}" timestamp="${suite.timestamp.toISOString().slice(0, 19)}">`;
  const classname = xmlText(suite.input);
  for (const result of results) {
    const open = `    <testcase name="${xmlText(caseName(result, numbered))}" classname="${classname}" time="0"`;
    // A record's warnings ride on its case, passed or not, as the log a person reads would show them.
    const warnings = result.warnings
      ? `      <system-out>${result.warnings.map((warning) => xmlText(`warning: ${warning.path}: ${warning.message}`)).join('\n')}</system-out>`
      : undefined;
    if (failing.has(result.status)) {
      const { message, details } = failureOf(result);
      yield `${open}>`;
      yield `      <failure type="${result.status}" message="${message}">${details}</failure>`;
    } else if (skipped.has(result.status)) {
      yield `${open}>`;
      yield `      <skipped message="${xmlText(`${result.status}${result.error ? `: ${result.error}` : ''}`)}"/>`;
    } else if (warnings) {
      yield `${open}>`;
    } else {
      yield `${open}/>`;
      continue;
    }
    if (warnings) yield warnings;
    yield '    </testcase>';
  }
  if (suite.warnings && suite.warnings.length > 0) {
    yield `    <system-out>${suite.warnings.map((warning) => xmlText(`warning: ${warning}`)).join('\n')}</system-out>`;
  }
  yield '  </testsuite>';
  yield '</testsuites>';
}
