import { resolve } from 'node:path';
import { sandboxStateFile } from '../config/paths.js';
import type { Profile } from '../config/profile.js';
import { UsageError } from '../errors.js';
import type { RecordKindName } from './kind.js';
import { invoiceWords } from './record-check.js';
import { refundWords } from './refund-check.js';
import type { JournalState } from './journal-state.js';
import type { Shard } from './plan.js';

// Which journal a bulk run keeps, and whether an existing one is its own: a journal belongs to one target (the
// environment, its service and the kind of invoice), and a run never reads another target's as its own.

/** Where a refusal of a journal sends the merchant to read about journals. */
const seeJournal = '\nsee: einvoice help journal';

/** What a journal belongs to: an environment and its service (the base URL, or the built-in sandbox's state). */
export interface JournalTarget {
  environment: string;
  service: string;
}

export function targetOf(profile: Profile, env: NodeJS.ProcessEnv): JournalTarget {
  return {
    environment: profile.name,
    service: profile.baseUrl ? new URL(profile.baseUrl).href : `the built-in sandbox (${sandboxStateFile(env)})`,
  };
}

/** A journal's path and how messages show it; stdin has no default place for one. */
export interface JournalPlace {
  path: string;
  shown: string;
}

/** Where a run asks for its journal. */
export interface JournalRequest {
  /** The path the merchant gave (`--journal`), as given: relative to `cwd`. */
  given?: string;
  shard?: Shard;
  input: { path: string; absolutePath?: string };
  cwd: string;
  dryRun: boolean;
  environment: string;
}

/** The journal of this run: the one given, else one beside the file for each environment. */
export function journalFor(request: JournalRequest): JournalPlace | undefined {
  const { given, shard, input, environment } = request;
  if (given) return { path: resolve(request.cwd, given), shown: given };
  if (!input.absolutePath) {
    if (request.dryRun) return undefined;
    throw new UsageError('--journal PATH is required to send records from stdin; nothing was sent.', {
      hint: `The journal records what was sent, so that running the same command again resumes without duplicates.${seeJournal}`,
    });
  }
  return {
    path: defaultJournalPath(input.absolutePath, shard, environment),
    shown: defaultJournalPath(input.path, shard, environment),
  };
}

/**
 * The default journal beside the input, one per environment: `FILE.ENV.journal.ndjson`, or
 * `FILE.ENV.shard-I-of-N.journal.ndjson`.
 */
function defaultJournalPath(input: string, shard: Shard | undefined, environment: string): string {
  const env = `.${environment.replace(/[^A-Za-z0-9_-]+/g, '_')}`;
  return shard
    ? `${input}${env}.shard-${shard.index}-of-${shard.count}.journal.ndjson`
    : `${input}${env}.journal.ndjson`;
}

/**
 * Refuses a journal of another target (environment, service, kind) or shard, with the way out; nothing has been sent
 * yet.
 */
export async function checkJournalFits(
  earlier: JournalState | undefined,
  journal: JournalPlace | undefined,
  target: JournalTarget & { kind: RecordKindName },
  shard: string | undefined,
): Promise<void> {
  const shown = journal?.shown;
  const written = earlier?.target;
  if (written && (written.environment !== target.environment || written.service !== target.service)) {
    const sameName = written.environment === target.environment;
    throw new UsageError(
      `The journal ${shown} belongs to the ${written.environment} environment at ${written.service}, not to ` +
        `${sameName ? 'its service now' : `the ${target.environment} environment`} at ${target.service}; nothing was sent.`,
      {
        hint:
          (sameName
            ? `To resume it, run against ${written.service}. To send the file to ${target.service}, give it a journal of its own: --journal PATH.`
            : `To resume it, run with --env ${written.environment}. To send the file to ${target.environment}, give it a journal of its own: --journal PATH (without --journal, each environment gets its own beside the file).`) +
          seeJournal,
      },
    );
  }
  if (earlier?.kind && earlier.kind !== target.kind) {
    throw new UsageError(`The journal ${shown} belongs to \`${commandOf[earlier.kind]}\`; nothing was sent.`, {
      hint: `To run \`${commandOf[target.kind]}\` on the same file, give it a journal of its own: --journal PATH.${seeJournal}`,
    });
  }
  if (earlier?.resolveDatesAt && earlier.shard !== shard) {
    throw new UsageError(
      `The journal ${shown} was written ${earlier.shard ? `by shard ${earlier.shard}` : 'without --shard'}; nothing was sent.`,
      { hint: `Give each shard its own journal (the default does), or run with the same --shard.${seeJournal}` },
    );
  }
}

/** The command each kind of journal belongs to, in the kind's own words. */
const commandOf: Readonly<Record<RecordKindName, string>> = {
  single: invoiceWords('single').command,
  recurring: invoiceWords('recurring').command,
  refund: refundWords.command,
};
