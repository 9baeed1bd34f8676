import { appendFile } from 'node:fs/promises';
import { relative } from 'node:path';
import type { BatchSummary, RecordResults } from '../../bulk/index.js';
import type { CommandContext } from '../../context.js';
import { wordsFor } from '../../output/action-inputs.js';
import { countOf } from '../../output/format.js';
import { group, recordAnnotations, stepSummary, workflowCommand } from '../../output/github-actions.js';

/** A bulk run's end, as a GitHub Actions job shows it. */
export interface GithubRun {
  summary: BatchSummary;
  results: RecordResults;
  numbered: 'line' | 'row';
  /** The input: how messages name it, and its absolute path (none for stdin). */
  input: { name: string; absolutePath?: string };
  /** What the merchant can do about the records not created. */
  next?: string;
  /** Warnings of the run as a whole, not of one record. */
  runWarnings?: readonly string[];
}

/**
 * Annotates the input's lines with the records to act on (folded in one group of the log), and appends the run's
 * summary to `$GITHUB_STEP_SUMMARY`, the Markdown the run's page shows.
 */
export async function reportToGithub(run: GithubRun, context: CommandContext): Promise<void> {
  const { env } = context;
  const file = annotatedFile(run.input.absolutePath, context);
  // Where the Action runs einvoice, what to change is named as the workflow sets it: its inputs.
  const words = wordsFor(env);
  const annotations = [
    ...(run.runWarnings ?? []).map((warning) =>
      workflowCommand('warning', { file, title: 'einvoice' }, words(warning)),
    ),
    ...recordAnnotations(run.results, { file, numbered: run.numbered, words }),
  ];
  if (annotations.length > 0) {
    context.stderr.write(`${group(`einvoice: ${countOf(annotations.length, 'finding')} to look at`, annotations)}\n`);
  }
  if (env.GITHUB_STEP_SUMMARY) {
    await appendFile(
      env.GITHUB_STEP_SUMMARY,
      words(stepSummary(run.summary, run.results, run.numbered, run.input.name, run.next, run.runWarnings)),
    );
  }
}

/** The input as an annotation names it: its path from the repository's root, where a job starts; none for stdin. */
export function annotatedFile(absolutePath: string | undefined, context: CommandContext): string | undefined {
  return (
    absolutePath &&
    relative(context.env.GITHUB_WORKSPACE || context.cwd, absolutePath)
      .split('\\')
      .join('/')
  );
}
