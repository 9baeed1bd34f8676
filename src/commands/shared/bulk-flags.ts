import { InvalidArgumentError, Option } from '@commander-js/extra-typings';
import type { Shard } from '../../bulk/index.js';
import { defaultMaxRetryAfterSeconds } from '../../context.js';
import { repeatable, wholeNumberFlag } from '../../input/flag-parsers.js';
import type { BulkRunSettings } from './bulk-run.js';
import { UsageError } from '../../errors.js';

// The flags of a run over a file of many records and of reading a sheet, as commander reads them: each command that
// offers them adds those it offers to its declaration (its flags.ts), so commander infers their types. Loaded with
// the command tree, so it holds nothing heavier than commander.

/** What a run uses when a flag is absent. */
export const bulkDefaults = { concurrency: 8, retries: 3, stopAfterFailures: 10 } as const;

/** The flags of a run over a file of many records, in the order `--help` lists them; each takes its help group. */
export const bulkFlag = {
  concurrency: (group: string) =>
    new Option('--concurrency <n>', `requests in flight at once (default ${bulkDefaults.concurrency})`)
      .argParser(wholeNumberFlag(1, 256))
      .helpGroup(group),
  rate: (group: string) =>
    new Option('--rate <n>', 'at most n requests per second').argParser(parseRate).helpGroup(group),
  retries: (group: string) =>
    new Option(
      '--retries <n>',
      `automatic retries when safe: a create's when it cannot make a second invoice, a refund's after a 429 alone (default ${bulkDefaults.retries})`,
    )
      .argParser(wholeNumberFlag(0, 20))
      .helpGroup(group),
  stopAfterFailures: (group: string) =>
    new Option(
      '--stop-after-failures <n>',
      `stop once n attempts in a row fail as every record would (service down, TLS, a login page); default ${bulkDefaults.stopAfterFailures}, 0 never`,
    )
      .argParser(wholeNumberFlag(0, 1_000_000))
      .helpGroup(group),
  journal: (group: string) =>
    new Option(
      '--journal <file>',
      'the run journal (default FILE.ENV.journal.ndjson; required with --file -)',
    ).helpGroup(group),
  report: (group: string) =>
    new Option(
      '--report <file>',
      'write one line per record: .csv, .xlsx (a workbook), .xml (JUnit: a test case each), or NDJSON otherwise',
    ).helpGroup(group),
  referencePrefix: (group: string) =>
    new Option(
      '--reference-prefix <prefix>',
      'give records without a businessReference one: prefix + content hash',
    ).helpGroup(group),
  resendUncertain: (group: string) =>
    new Option('--resend-uncertain', 'send again records an earlier run sent without learning the outcome').helpGroup(
      group,
    ),
  skipInvalid: (group: string) =>
    new Option(
      '--skip-invalid',
      'send the valid records and report the invalid ones (default: send nothing)',
    ).helpGroup(group),
  allowExpired: (group: string) =>
    new Option(
      '--allow-expired',
      'send records whose expiry has passed or is not after their release and sending dates (default: held back)',
    ).helpGroup(group),
  shard: (group: string) =>
    new Option('--shard <i/n>', 'only the records whose position modulo n is i-1 (one CI job of n)')
      .argParser(parseShard)
      .helpGroup(group),
  quiet: (group: string) =>
    new Option('--quiet', 'no progress display, no note on resuming; the summary and errors still print').helpGroup(
      group,
    ),
  markCreated: (group: string) =>
    new Option(
      '--mark-created <row>',
      'an uncertain record (its row, or line, as the run lists it) was created (you checked): never send it again (repeatable)',
    )
      .argParser(repeatableRow)
      .helpGroup(group),
  markNotCreated: (group: string) =>
    new Option(
      '--mark-not-created <row>',
      'an uncertain record (its row, or line, as the run lists it) was not created (you checked): a run sends it again (repeatable)',
    )
      .argParser(repeatableRow)
      .helpGroup(group),
};

/** Collects the rows a repeatable flag names: each a row (or line) number as a run lists a record. */
function repeatableRow(value: string, previous: string[] = []): string[] {
  const row = /^\s*(?:(?:row|line)\s+)?(\d+)\s*$/i.exec(value)?.[1];
  if (row === undefined || Number(row) < 1) {
    throw new InvalidArgumentError('must be the row (or line) a run lists a record by, e.g. 4');
  }
  return [...previous, String(Number(row))];
}

/**
 * The merchant's word on records an earlier run sent, from a pair of repeatable flags (`--mark-refunded` and
 * `--mark-not-refunded`, `--mark-created` and `--mark-not-created`): one record named by both is refused, naming it,
 * before anything is opened.
 */
export function merchantWordOf(
  done: readonly string[] | undefined,
  notDone: readonly string[] | undefined,
  flags: { done: string; notDone: string; what: string },
): { done: readonly string[]; notDone: readonly string[] } | undefined {
  if (!done && !notDone) return undefined;
  const both = [...new Set((done ?? []).filter((name) => notDone?.includes(name)))];
  if (both.length > 0) {
    throw new UsageError(
      `${flags.what} ${both.join(', ')}: both ${flags.done} and ${flags.notDone} were given for ${both.length === 1 ? 'it' : 'them'}; nothing was sent.`,
      { hint: `Say one thing of each: ${flags.done} if it was done, ${flags.notDone} if it was not.` },
    );
  }
  return { done: done ?? [], notDone: notDone ?? [] };
}

/** What `--format` forces the input to be read as. */
export const inputFormats = ['csv', 'ndjson', 'json', 'xlsx'] as const;

/** The help group of the flags of reading a sheet, `input` being how the command takes the file. */
const sheetGroup = (input: string) =>
  `Spreadsheets (${input} holding CSV or an .xlsx workbook, header row of field names):`;

/**
 * The flags of reading a sheet (CSV or a workbook), in the order `--help` lists them; `input` names the file they read
 * as the command takes it (`--file`, or an argument's name).
 */
export const sheetFlag = {
  format: (input = '--file') =>
    new Option(
      '--format <format>',
      `read ${input} as csv, ndjson, json or xlsx (default: by its extension and content)`,
    )
      .choices(inputFormats)
      .helpGroup(sheetGroup(input)),
  delimiter: (input = '--file') =>
    new Option('--delimiter <char>', 'the CSV separator: , ; | or tab (default: sniffed from the header)')
      .argParser(parseDelimiter)
      .helpGroup(sheetGroup(input)),
  sheet: (input = '--file') =>
    new Option('--sheet <name>', 'the worksheet of an .xlsx workbook to read (default: the first)').helpGroup(
      sheetGroup(input),
    ),
  dateFormat: (input = '--file') =>
    new Option(
      '--date-format <format>',
      "read dates with slashes as DD/MM/YYYY (never guessed), in a CSV's cells and a workbook's text cells",
    )
      .choices(['YYYY-MM-DD', 'DD/MM/YYYY'] as const)
      .helpGroup(sheetGroup(input)),
  ignoreColumn: (input = '--file') =>
    new Option('--ignore-column <name>', 'skip a column of the sheet that is not an invoice field (repeatable)')
      .argParser(repeatable)
      .helpGroup(sheetGroup(input)),
};

/**
 * The flags among `flags` that were given, by name (`--concurrency`): those of a file of many records given to a
 * command about one.
 */
export function flagsGiven(options: object, flags: Readonly<Record<string, (group: string) => Option>>): string[] {
  const given = new Map(Object.entries(options));
  return Object.values(flags)
    .map((flag) => flag(''))
    .filter((option) => given.get(option.attributeName()) !== undefined)
    .map((option) => option.long ?? option.flags);
}

/** The bulk-only flags given, by name. */
export function bulkFlagsGiven(options: object): string[] {
  return flagsGiven(options, bulkFlag);
}

/** The sheets each flag of reading one applies to (`--format` reads any file, so it is none of them). */
const sheetsOf: Record<Exclude<keyof typeof sheetFlag, 'format'>, ReadonlyArray<string>> = {
  delimiter: ['csv'],
  sheet: ['xlsx'],
  dateFormat: ['csv', 'xlsx'],
  ignoreColumn: ['csv', 'xlsx'],
};

/** The sheets a flag of reading one applies to, by its name (`--delimiter`: `csv`); none for another flag. */
export function sheetsOfFlag(flag: string): ReadonlyArray<string> {
  const { format: _format, ...sheetOnly } = sheetFlag;
  const found = Object.entries(sheetOnly).find(([, declared]) => declared().long === flag);
  return found ? sheetsOf[found[0] as keyof typeof sheetsOf] : [];
}

/** The flags of reading a sheet given that do not apply to an input of `format` (all of them for no sheet). */
export function csvFlagsGiven(options: object, format?: string): string[] {
  const { format: _format, ...sheetOnly } = sheetFlag;
  const misplaced = Object.entries(sheetOnly).filter(
    ([name]) => !sheetsOf[name as keyof typeof sheetsOf].some((sheet) => sheet === format),
  );
  return flagsGiven(options, Object.fromEntries(misplaced));
}

/** The flags of a run over a file that every command offering one reads, as commander hands them over. */
export interface BulkRunFlags {
  dryRun?: boolean;
  report?: string;
  journal?: string;
  shard?: Shard;
  delimiter?: string;
  sheet?: string;
  dateFormat?: 'YYYY-MM-DD' | 'DD/MM/YYYY';
  ignoreColumn?: string[];
  resendUncertain?: boolean;
  concurrency?: number;
  rate?: number;
  retries?: number;
  maxRetryAfter?: number;
  stopAfterFailures?: number;
  quiet?: boolean;
  skipInvalid?: boolean;
  /** False with `--no-ledger`. */
  ledger?: boolean;
}

/** The run a command's flags ask for, with the defaults of the flags left out. */
export function bulkRunOf(flags: BulkRunFlags): BulkRunSettings {
  return {
    dryRun: Boolean(flags.dryRun),
    report: flags.report,
    journal: flags.journal,
    shard: flags.shard,
    sheet: {
      delimiter: flags.delimiter,
      dateFormat: flags.dateFormat,
      ignoreColumns: flags.ignoreColumn,
      sheet: flags.sheet,
    },
    resendUncertain: Boolean(flags.resendUncertain),
    sending: {
      concurrency: flags.concurrency ?? bulkDefaults.concurrency,
      rate: flags.rate,
      retries: flags.retries ?? bulkDefaults.retries,
      maxRetryAfterMs: (flags.maxRetryAfter ?? defaultMaxRetryAfterSeconds) * 1000,
      stopAfterFailures: flags.stopAfterFailures ?? bulkDefaults.stopAfterFailures,
    },
    quiet: Boolean(flags.quiet),
    skipInvalid: Boolean(flags.skipInvalid),
    ledger: flags.ledger !== false,
  };
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

const delimiterNames: Record<string, string> = { tab: '\t', '\\t': '\t', comma: ',', semicolon: ';', pipe: '|' };

/** One separator character: `,` `;` `|`, or `tab`. */
export function parseDelimiter(value: string): string {
  const delimiter = delimiterNames[value.toLowerCase()] ?? value;
  if (delimiter.length !== 1 || /[\w"\r\n ]/.test(delimiter)) {
    throw new InvalidArgumentError('must be one character such as , ; | or the word tab');
  }
  return delimiter;
}
