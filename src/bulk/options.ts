import { InvalidArgumentError, Option } from 'commander';
import { wholeNumberFlag } from '../input/flag-parsers.js';
import type { Shard } from './plan.js';

// The flags of bulk creation, how commander reads them, and their defaults. Loaded with the command tree, so it
// holds nothing heavier than commander.

export const bulkDefaults = { concurrency: 8, retries: 3, stopAfterFailures: 10 } as const;

/** One flag of bulk creation: its name and value placeholder, its help line, and how commander reads its value. */
interface BulkFlag {
  readonly flag: `--${string}`;
  readonly valueName?: string;
  readonly help: string;
  readonly parse?: (value: string) => unknown;
}

// The literal table, kept for the types it gives (BulkFlags); read it through `bulkFlags`.
const bulkFlagTable = [
  {
    flag: '--concurrency',
    valueName: '<n>',
    help: `requests in flight at once (default ${bulkDefaults.concurrency})`,
    parse: wholeNumberFlag(1, 256),
  },
  { flag: '--rate', valueName: '<n>', help: 'at most n requests per second', parse: parseRate },
  {
    flag: '--retries',
    valueName: '<n>',
    help: `automatic retries of a create, when safe (default ${bulkDefaults.retries})`,
    parse: wholeNumberFlag(0, 20),
  },
  {
    flag: '--stop-after-failures',
    valueName: '<n>',
    help: `stop once n attempts in a row fail as every record would (service down, TLS, a login page); default ${bulkDefaults.stopAfterFailures}, 0 never`,
    parse: wholeNumberFlag(0, 1_000_000),
  },
  {
    flag: '--journal',
    valueName: '<file>',
    help: 'the run journal (default FILE.ENV.journal.ndjson; required with --file -)',
  },
  {
    flag: '--report',
    valueName: '<file>',
    help: 'write one line per record: .csv, .xlsx (a workbook), .xml (JUnit: a test case each), or NDJSON otherwise',
  },
  {
    flag: '--reference-prefix',
    valueName: '<prefix>',
    help: 'give records without a businessReference one: prefix + content hash',
  },
  { flag: '--resend-uncertain', help: 'send again records an earlier run sent without learning the outcome' },
  { flag: '--skip-invalid', help: 'send the valid records and report the invalid ones (default: send nothing)' },
  {
    flag: '--allow-expired',
    help: 'send records whose expiry has passed or is not after their release and sending dates (default: held back)',
  },
  {
    flag: '--shard',
    valueName: '<i/n>',
    help: 'only the records whose position modulo n is i-1 (one CI job of n)',
    parse: parseShard,
  },
  { flag: '--quiet', help: 'no progress display, no note on resuming; the summary and errors still print' },
] as const satisfies readonly BulkFlag[];

/** The flags that apply only to a file of many invoices, in the order `--help` lists them. */
export const bulkFlags: readonly BulkFlag[] = bulkFlagTable;

type CamelCase<Name extends string> = Name extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : Name;
type FlagValue<Flag> = Flag extends { parse: (value: string) => infer Value }
  ? Value
  : Flag extends { valueName: string }
    ? string
    : boolean;

/** The bulk flags as commander hands them over, inferred from the table. */
export type BulkFlags = {
  -readonly [
    Flag in (typeof bulkFlagTable)[number] as Flag['flag'] extends `--${infer Name}` ? CamelCase<Name> : never
  ]?: FlagValue<Flag>;
};

/** The name commander gives a flag's value: `--reference-prefix` -> `referencePrefix`. */
const optionName = (flag: string) => flag.slice(2).replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** The bulk-only flags given, by name. */
export function bulkFlagsGiven(options: BulkFlags): string[] {
  const given = options as Record<string, unknown>;
  return bulkFlags.filter(({ flag }) => given[optionName(flag)] !== undefined).map(({ flag }) => flag);
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
 * `FILE.ENV.shard-I-of-N.journal.ndjson`.
 */
export function defaultJournalPath(input: string, shard: Shard | undefined, environment: string): string {
  const env = `.${environment.replace(/[^A-Za-z0-9_-]+/g, '_')}`;
  return shard
    ? `${input}${env}.shard-${shard.index}-of-${shard.count}.journal.ndjson`
    : `${input}${env}.journal.ndjson`;
}

/** The commander options of the bulk flags named (all of them by default), in the table's order. */
export function bulkOptions(group: string, only?: readonly string[]): Option[] {
  return bulkFlags
    .filter((bulkFlag) => only === undefined || only.includes(bulkFlag.flag))
    .map((bulkFlag) => {
      const option = new Option(
        bulkFlag.valueName ? `${bulkFlag.flag} ${bulkFlag.valueName}` : bulkFlag.flag,
        bulkFlag.help,
      ).helpGroup(group);
      return bulkFlag.parse ? option.argParser(bulkFlag.parse) : option;
    });
}
