import { Chalk } from 'chalk';
import type { CommandContext } from '../context.js';
import { EinvoiceError, ServiceRejectedError, UsageError, type FieldIssue } from '../errors.js';
import { wordsFor } from './action-inputs.js';
import { terminalSafe } from './safe-text.js';
import { colorAllowed } from './terminal.js';

/** How many field issues an error lists before "...and N more". */
export const listedIssues = 20;

/**
 * Prints an error on stderr on one screen: the message, one line per field, and a hint. A stack trace is shown
 * only for an unexpected error under --verbose.
 */
export function printError(
  error: unknown,
  context: CommandContext,
  options: { verbose: boolean; color: boolean },
): void {
  const color = new Chalk({ level: colorAllowed(context.stderr, context.env, options) ? 1 : 0 });
  // An error may carry the service's words (its message, its field names): they are printed without escapes. Where
  // the GitHub Action runs einvoice, what to change names the Action's inputs.
  const words = wordsFor(context.env);
  const safe = (text: string) => terminalSafe(words(text));
  const lines: string[] = [];
  if (error instanceof EinvoiceError) {
    lines.push(`${color.red('✖')} ${safe(error.message)}`);
    const issues: FieldIssue[] =
      error instanceof UsageError || error instanceof ServiceRejectedError ? error.issues : [];
    for (const issue of issues.slice(0, listedIssues))
      lines.push(`  ${color.bold(safe(issue.path))}: ${safe(issue.message)}`);
    if (issues.length > listedIssues) lines.push(`  ...and ${issues.length - listedIssues} more`);
    if (error.hint) lines.push(color.dim(safe(error.hint)));
    const topics = error instanceof UsageError ? topicsOf(error.issues) : [];
    if (topics.length > 0) lines.push(color.dim(`see: ${topics.map((topic) => `einvoice help ${topic}`).join(', ')}`));
  } else {
    const message = error instanceof Error ? error.message : String(error);
    lines.push(`${color.red('✖')} Unexpected error: ${safe(message)}`);
    if (options.verbose && error instanceof Error && error.stack) lines.push(color.dim(error.stack));
    else lines.push(color.dim('Run again with --verbose for details, and report it if it persists.'));
  }
  context.stderr.write(`${lines.join('\n')}\n`);
}

/** The fields whose rules a help topic explains: a date's forms and time zone, and the rules of money. */
const topicFields: readonly (readonly [topic: string, field: RegExp])[] = [
  ['dates', /\b(sendingDate|releaseDate|expiryDate)\b/],
  ['money', /\b(amount|price|taxes|purchasedQuantity)\b|\bdiscount\.value\b/],
];

/** The help topics that explain why `issues` were refused; a field that is only missing needs none. */
function topicsOf(issues: readonly FieldIssue[]): string[] {
  const refused = issues.filter((issue) => issue.message !== 'is required');
  return topicFields.filter(([, field]) => refused.some((issue) => field.test(issue.path))).map(([topic]) => topic);
}
