import { InvalidArgumentError } from 'commander';
import type { Shard } from './plan.js';

// The flags of bulk creation, how commander reads them, and their defaults. Loaded with the command tree, so it
// holds nothing heavier than commander.

/** Flags that apply only to a file of many invoices. */
export interface BulkFlags {
  concurrency?: number;
  rate?: number;
  retries?: number;
  journal?: string;
  report?: string;
  referencePrefix?: string;
  resendUncertain?: boolean;
  skipInvalid?: boolean;
  shard?: Shard;
  quiet?: boolean;
  stopAfterFailures?: number;
}

export const bulkDefaults = { concurrency: 8, retries: 3, stopAfterFailures: 10 } as const;

const bulkFlagNames: ReadonlyArray<[keyof BulkFlags, string]> = [
  ['concurrency', '--concurrency'],
  ['rate', '--rate'],
  ['retries', '--retries'],
  ['journal', '--journal'],
  ['report', '--report'],
  ['referencePrefix', '--reference-prefix'],
  ['resendUncertain', '--resend-uncertain'],
  ['skipInvalid', '--skip-invalid'],
  ['shard', '--shard'],
  ['quiet', '--quiet'],
  ['stopAfterFailures', '--stop-after-failures'],
];

/** The bulk-only flags given, by name. */
export function bulkFlagsGiven(options: BulkFlags): string[] {
  return bulkFlagNames.filter(([key]) => options[key] !== undefined).map(([, flag]) => flag);
}

/** Requests per second: a number above 0. */
export function parseRate(value: string): number {
  const parsed = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !(parsed > 0)) {
    throw new InvalidArgumentError('must be a number of requests per second above 0, e.g. 20 or 0.5');
  }
  return parsed;
}

/** `I/N`, with 1 <= I <= N. */
export function parseShard(value: string): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) {
    throw new InvalidArgumentError('must be I/N with 1 <= I <= N, e.g. 2/4 for the second of four jobs');
  }
  return { index, count };
}

/**
 * The default journal beside the input, one per environment: `FILE.ENV.journal.ndjson`, or
 * `FILE.ENV.shard-I-of-N.journal.ndjson`. Without `environment`, the single journal earlier versions kept.
 */
export function defaultJournalPath(input: string, shard: Shard | undefined, environment?: string): string {
  const env = environment === undefined ? '' : `.${environment.replace(/[^A-Za-z0-9_-]+/g, '_')}`;
  return shard
    ? `${input}${env}.shard-${shard.index}-of-${shard.count}.journal.ndjson`
    : `${input}${env}.journal.ndjson`;
}
