import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodingNames } from '../src/input/text-encoding.js';
import { action, inputsWith, outputsOf, runBash, writeStubs, type Step } from './helpers/action-runner.js';
import { tempDir } from './bulk/helpers.js';
import { copyOfRepository } from './helpers/repository-copy.js';

// The GitHub Action (action.yml): its inputs, its journal's cache keys, and the bash of its steps run as the runner
// runs them, each `${{ }}` of a step's env filled in from a table, with a stub einvoice that records its arguments.
// test/action-run.test.ts runs the whole Action, with the real einvoice, against a sandbox.

const steps = action.runs.steps;
/** The Action's own files, as the runner downloads them. */
const actionFiles = copyOfRepository('action-files');

function step(name: string): Step {
  const found = steps.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`action.yml has no step named "${name}"`);
  return found;
}

/** A step's env with each value's `${{ expression }}` taken from `inputs` or `outputs`; any other throws. */
function stepEnv(target: Step, inputs: Record<string, string>, outputs: Record<string, string> = {}) {
  return Object.fromEntries(
    Object.entries(target.env ?? {}).map(([name, value]) => {
      const expression = /^\$\{\{\s*(.+?)\s*\}\}$/.exec(value)?.[1];
      if (expression === undefined) return [name, value];
      const input = /^inputs\.([\w-]+)$/.exec(expression)?.[1];
      const filled = input !== undefined ? inputs[input] : outputs[expression];
      if (filled === undefined) throw new Error(`${target.name}: no value in this test for ${name}: ${value}`);
      return [name, filled];
    }),
  );
}

/** Runs a step's script as `shell: bash` does, in `folder`, with only `env` and a stub einvoice first on PATH. */
function runStep(target: Step, env: Record<string, string>, folder = tempDir(), stubs: Record<string, string> = {}) {
  const bin = join(folder, 'bin');
  const argvFile = join(folder, 'argv');
  const outputFile = join(folder, 'github-output');
  writeFileSync(outputFile, '');
  writeStubs(bin, { einvoice: `printf '%s\\0' "$@" > '${argvFile}'`, ...stubs });
  const result = runBash(target.run ?? '', {
    cwd: folder,
    scriptFolder: join(folder, 'script'),
    env: { PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`, GITHUB_OUTPUT: outputFile, ...env },
  });
  const argv = existsSync(argvFile) ? readFileSync(argvFile, 'utf8').split('\0').slice(0, -1) : undefined;
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    argv,
    outputs: outputsOf(outputFile),
    folder,
  };
}

const journal = '.einvoice/einvoice-journal-staging-single-0123456789abcdef-all.ndjson';

/** Runs "Create the invoices" with the inputs' defaults and `given`. */
function create(given: Record<string, string> = {}) {
  const target = step('Create the invoices');
  return runStep(target, stepEnv(target, inputsWith(given), { 'steps.journal.outputs.path': journal }));
}

const refundJournal = '.einvoice/einvoice-journal-staging-refunds-0123456789abcdef-all.ndjson';

/** Runs "Create the invoices" with kind refunds, the inputs' defaults and `given`. */
function refund(given: Record<string, string> = {}) {
  const target = step('Create the invoices');
  const inputs = inputsWith({ file: 'refunds.csv', kind: 'refunds', ...given });
  return runStep(target, stepEnv(target, inputs, { 'steps.journal.outputs.path': refundJournal }));
}

/** What every run passes before the inputs' own flags. */
const always = ['create', 'single', '--file', 'invoices.csv', '--yes', '--report', 'einvoice-report.xml'];

/** The command line the Action's delimiter, concurrency, rate, retries and stop inputs of the tests below become. */
const sheetAndPace = [
  '--delimiter',
  ';',
  '--concurrency',
  '4',
  '--rate',
  '2.5',
  '--retries',
  '0',
  '--stop-after-failures',
  '0',
];

describe('action.yml: inputs', () => {
  it('has an input for every reading and bulk setting of the CLI', () => {
    const settings = ['encoding', 'date-format', 'delimiter', 'ignore-column', 'allow-expired', 'format', 'sheet'];
    const bulk = ['drop-unknown-fields', 'concurrency', 'rate', 'retries', 'stop-after-failures', 'resend-uncertain'];
    const checks = ['strict', 'amount', 'fix-mobiles', 'time-zone'];
    const uncertain = ['mark-created', 'mark-not-created'];
    const refunds = ['expect-count', 'expect-total', 'mark-refunded', 'mark-not-refunded'];
    for (const name of [...settings, ...bulk, ...checks, ...uncertain, ...refunds]) {
      expect(action.inputs, name).toHaveProperty(name);
      expect(Object.values(step('Create the invoices').env ?? {}), name).toContain(`\${{ inputs.${name} }}`);
    }
  });

  it('is strict by default: an unattended run refuses what a person would have looked at', () => {
    expect(action.inputs.strict?.default).toBe('true');
    expect(action.inputs.amount?.default).toBe('');
    expect(action.inputs['fix-mobiles']?.default).toBe('false');
  });

  it("runs einvoice in the service's own zone by default, and tells it that it runs as the Action", () => {
    expect(action.inputs['time-zone']?.default).toBe('Africa/Cairo');
    expect(step('Check the environment').env?.TZ).toBe('${{ inputs.time-zone }}');
    const target = step('Create the invoices');
    const seen = (given: Record<string, string>) =>
      runStep(target, stepEnv(target, inputsWith(given), { 'steps.journal.outputs.path': journal }), tempDir(), {
        einvoice: 'echo "zone=$TZ action=$EINVOICE_ACTION"',
      }).stdout;
    expect(seen({})).toBe('zone=Africa/Cairo action=true\n');
    expect(seen({ 'time-zone': 'Asia/Riyadh' })).toBe('zone=Asia/Riyadh action=true\n');
  });

  it('never writes an expression into a script: inputs reach bash through env only', () => {
    for (const target of steps.filter((candidate) => candidate.run))
      expect(target.run, target.name).not.toContain('${{');
  });

  it('documents every input in the table of docs/ci.md', () => {
    const page = readFileSync(new URL('../docs/ci.md', import.meta.url), 'utf8');
    for (const name of Object.keys(action.inputs)) expect(page, name).toContain(`| \`${name}\` `);
  });
});

describe('action.yml: the command line of "Create the invoices"', () => {
  it('passes --strict when the input is left at its default, and --no-strict when it is false', () => {
    expect(create().argv).toEqual([...always, '--journal', journal, '--strict']);
    expect(create({ strict: 'false' }).argv).toEqual([...always, '--journal', journal, '--no-strict']);
    expect(create({ strict: '' }).argv).toContain('--strict');
  });

  it('passes the encoding and date format of an Arabic Windows sheet', () => {
    const run = create({ encoding: 'windows-1256', 'date-format': 'DD/MM/YYYY' });
    expect(run.argv).toEqual([
      ...always,
      '--journal',
      journal,
      '--strict',
      '--encoding',
      'windows-1256',
      '--date-format',
      'DD/MM/YYYY',
    ]);
  });

  it('passes each column of a comma- or newline-separated ignore-column list as its own flag', () => {
    const run = create({ 'ignore-column': 'region, comment\nsales rep\n\n' });
    expect(run.argv?.slice(always.length + 3)).toEqual([
      '--ignore-column',
      'region',
      '--ignore-column',
      'comment',
      '--ignore-column',
      'sales rep',
    ]);
  });

  it('maps amount keep and items to their flags', () => {
    expect(create({ amount: 'keep' }).argv).toContain('--keep-amount');
    expect(create({ amount: 'keep' }).argv).not.toContain('--amount-from-items');
    expect(create({ amount: 'items' }).argv).toContain('--amount-from-items');
    expect(create().argv).not.toContain('--keep-amount');
    expect(create().argv).not.toContain('--amount-from-items');
  });

  it('passes every other input given, each as the CLI spells it', () => {
    const run = create({
      kind: 'recurring',
      shard: '2/4',
      'reference-prefix': 'june-',
      format: 'csv',
      delimiter: ';',
      concurrency: '4',
      rate: '2.5',
      retries: '0',
      'stop-after-failures': '0',
      'dry-run': 'true',
      'skip-invalid': 'true',
      'allow-expired': 'true',
      'drop-unknown-fields': 'true',
      'resend-uncertain': 'true',
    });
    expect(run.status).toBe(0);
    expect(run.argv).toEqual([
      'create',
      'recurring',
      '--file',
      'invoices.csv',
      '--yes',
      '--report',
      'einvoice-report.xml',
      '--journal',
      journal,
      '--strict',
      '--dry-run',
      '--skip-invalid',
      '--allow-expired',
      '--drop-unknown-fields',
      '--resend-uncertain',
      '--shard',
      '2/4',
      '--reference-prefix',
      'june-',
      '--format',
      'csv',
      ...sheetAndPace,
    ]);
  });

  it('accepts every encoding the CLI reads', () => {
    for (const encoding of encodingNames) expect(create({ encoding }).argv, encoding).toContain(encoding);
  });

  it('refuses a value outside its list with an ::error:: line naming the input, and runs nothing', () => {
    const refused = {
      amount: 'both',
      kind: 'refund',
      format: 'xls',
      encoding: 'cp1256',
      'date-format': 'MM/DD/YYYY',
      strict: 'yes',
      'dry-run': 'True',
      'skip-invalid': '1',
      'allow-expired': 'on',
      'drop-unknown-fields': 'y',
      'resend-uncertain': 'no',
      'fix-mobiles': 'yes',
    };
    for (const [input, value] of Object.entries(refused)) {
      const run = create({ [input]: value });
      expect(run.status, input).toBe(2);
      expect(run.stdout, input).toMatch(new RegExp(`^::error[^:]*::The input ${input} is '${value}'`, 'm'));
      expect(run.argv, input).toBeUndefined();
    }
  });

  it('refuses a time zone the platform does not know, naming the input, and runs nothing', () => {
    for (const zone of ['Africa/Kairo', 'GMT+2', 'Cairo', '']) {
      const run = create({ 'time-zone': zone });
      expect(run.status, zone).toBe(2);
      expect(run.stdout, zone).toMatch(
        new RegExp(
          `^::error[^:]*::The input time-zone is '${zone.replace('+', '\\+')}': it must be a time zone name`,
          'm',
        ),
      );
      expect(run.argv, zone).toBeUndefined();
    }
    for (const zone of ['Africa/Cairo', 'UTC', 'Asia/Riyadh', 'America/New_York'])
      expect(create({ 'time-zone': zone }).status, zone).toBe(0);
  });

  it('reads a workbook: format xlsx, and the sheet to read', () => {
    const run = create({ file: 'invoices.xlsx', format: 'xlsx', sheet: 'Orders' });
    expect(run.status, run.stdout).toBe(0);
    expect(run.argv?.slice(2)).toEqual([
      '--file',
      'invoices.xlsx',
      ...always.slice(4),
      '--journal',
      journal,
      '--strict',
      '--format',
      'xlsx',
      '--sheet',
      'Orders',
    ]);
  });

  it('passes --fix-mobiles for true only, and one flag per record of a mark list', () => {
    expect(create({ 'fix-mobiles': 'true' }).argv).toContain('--fix-mobiles');
    expect(create({ 'fix-mobiles': 'false' }).argv).not.toContain('--fix-mobiles');
    expect(create().argv).not.toContain('--fix-mobiles');
    const run = create({ 'mark-created': 'row 3, row 7\nrow 12\n', 'mark-not-created': 'line 9' });
    expect(run.status, run.stdout).toBe(0);
    expect(run.argv?.slice(always.length + 3)).toEqual([
      '--mark-created',
      'row 3',
      '--mark-created',
      'row 7',
      '--mark-created',
      'row 12',
      '--mark-not-created',
      'line 9',
    ]);
  });

  it('keeps a value that holds a line break on one ::error:: line, and runs nothing it holds', () => {
    const run = create({ amount: '50%\n::warning::$(touch injected)' });
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    expect(run.stdout).toContain("'50%25%0A::warning::$(touch injected)'");
    expect(existsSync(join(run.folder, 'injected'))).toBe(false);
  });

  it('hands a file name holding shell syntax to einvoice as it is', () => {
    const run = create({ file: '$(touch injected)`id`.csv' });
    expect(run.argv?.[3]).toBe('$(touch injected)`id`.csv');
    expect(existsSync(join(run.folder, 'injected'))).toBe(false);
  });
});

describe('action.yml: kind refunds', () => {
  const head = ['refund', '--file', 'refunds.csv', '--yes', '--report', 'einvoice-report.xml'];

  it('runs einvoice refund with the counts to expect and one flag per invoice of a mark list', () => {
    const run = refund({
      'expect-count': '200',
      'expect-total': '41250.00',
      'mark-refunded': '1000012, 1000013\n1000014\n\n',
      'mark-not-refunded': '1000020',
    });
    expect(run.status, run.stdout).toBe(0);
    expect(run.argv).toEqual([
      ...head,
      '--journal',
      refundJournal,
      '--strict',
      '--expect-count',
      '200',
      '--expect-total',
      '41250.00',
      '--mark-refunded',
      '1000012',
      '--mark-refunded',
      '1000013',
      '--mark-refunded',
      '1000014',
      '--mark-not-refunded',
      '1000020',
    ]);
  });

  it('passes only what was given, and strict as for invoices: a refund the ledger warns of is held back', () => {
    expect(refund().argv).toEqual([...head, '--journal', refundJournal, '--strict']);
    expect(refund({ strict: 'false' }).argv).toEqual([...head, '--journal', refundJournal, '--no-strict']);
    expect(refund({ strict: '' }).argv).toEqual([...head, '--journal', refundJournal, '--strict']);
  });

  it('passes the reading and bulk inputs a run of refunds takes', () => {
    const run = refund({
      shard: '2/4',
      format: 'csv',
      encoding: 'windows-1256',
      'date-format': 'DD/MM/YYYY',
      delimiter: ';',
      'ignore-column': 'region',
      concurrency: '4',
      rate: '2.5',
      retries: '0',
      'stop-after-failures': '0',
      'dry-run': 'true',
      'skip-invalid': 'true',
    });
    expect(run.status, run.stdout).toBe(0);
    expect(run.argv).toEqual([
      ...head,
      '--journal',
      refundJournal,
      '--strict',
      '--dry-run',
      '--skip-invalid',
      '--shard',
      '2/4',
      '--format',
      'csv',
      '--encoding',
      'windows-1256',
      '--date-format',
      'DD/MM/YYYY',
      ...sheetAndPace,
      '--ignore-column',
      'region',
    ]);
  });

  it('refuses an input only invoices take with an ::error:: line naming it, and runs nothing', () => {
    const invoiceOnly = {
      'reference-prefix': 'june-',
      amount: 'keep',
      'allow-expired': 'true',
      'drop-unknown-fields': 'true',
      'resend-uncertain': 'true',
      'fix-mobiles': 'true',
      'mark-created': 'row 3',
      'mark-not-created': 'row 4',
    };
    for (const [input, value] of Object.entries(invoiceOnly))
      expectRefused(refund({ [input]: value }), input, value, 'refunds');
    // Their defaults, given as the words they are, are no setting.
    for (const input of ['allow-expired', 'drop-unknown-fields', 'resend-uncertain', 'fix-mobiles'])
      expect(refund({ [input]: 'false' }).status, input).toBe(0);
  });

  it('refuses an input only refunds take on a run of invoices, and runs nothing', () => {
    const refundOnly = {
      'expect-count': '200',
      'expect-total': '41250.00',
      'mark-refunded': '1000012',
      'mark-not-refunded': '1000020',
    };
    for (const [input, value] of Object.entries(refundOnly))
      expectRefused(create({ [input]: value }), input, value, 'single');
  });
});

describe('action.yml: the journal follows the file across workflow runs', () => {
  const caches = steps.filter((candidate) => candidate.uses?.startsWith('actions/cache/'));
  const restore = step('Restore the journal');
  const save = step('Save the journal');

  /** The outputs of "Name the journal" for these inputs, as a run with this id and attempt computes them. */
  function named(given: Record<string, string> = {}, run = { id: '1001', attempt: '1' }) {
    const target = step('Name the journal');
    const env = { ...stepEnv(target, inputsWith(given)), GITHUB_RUN_ID: run.id, GITHUB_RUN_ATTEMPT: run.attempt };
    const result = runStep(target, env);
    expect(result.status, result.stderr).toBe(0);
    return result.outputs;
  }

  /** The key "Name the journal to save" gives `content` as the journal (none: no journal), and what was restored. */
  function saveKey(content: string | undefined, restored = '') {
    const target = step('Name the journal to save');
    const folder = tempDir();
    const outputs = named();
    if (content !== undefined) {
      mkdirSync(join(folder, '.einvoice'));
      writeFileSync(join(folder, outputs.path ?? ''), content);
    }
    const env = stepEnv(target, inputsWith({}), {
      'steps.journal.outputs.path': outputs.path ?? '',
      'steps.journal.outputs.prefix': outputs.prefix ?? '',
      'steps.restore.outputs.cache-matched-key': restored,
    });
    const result = runStep(target, env, folder);
    expect(result.status, result.stderr).toBe(0);
    return result.outputs.key;
  }

  it('restores by a prefix and saves under that prefix, keyed by no run', () => {
    expect(restore.with?.['restore-keys']).toBe('${{ steps.journal.outputs.prefix }}');
    expect(save.with?.key).toBe('${{ steps.journal-save.outputs.key }}');
    expect(save.with?.path).toBe(restore.with?.path);
    for (const cache of caches) {
      for (const value of Object.values(cache.with ?? {})) expect(value, cache.name).not.toMatch(/run_id|run_attempt/);
    }
    for (const name of ['Name the journal', 'Name the journal to save']) {
      expect(JSON.stringify(step(name)), name).not.toMatch(/run_id|run_attempt|GITHUB_RUN|GITHUB_JOB/);
    }
  });

  it('names the same journal in every run of the same file, environment, kind and shard', () => {
    const first = named({}, { id: '1001', attempt: '1' });
    expect(named({}, { id: '2002', attempt: '3' })).toEqual(first);
    expect(named({ file: './invoices.csv' })).toEqual(first);
    expect(first.prefix).toMatch(/^einvoice-journal-staging-single-[0-9a-f]{16}-all-$/);
    expect(first.path).toBe(`.einvoice/${first.prefix?.slice(0, -1)}.ndjson`);
  });

  it('names another journal for another file, environment, kind or shard', () => {
    const first = named();
    const others = [
      named({ file: 'other.csv' }),
      named({ environment: 'production' }),
      named({ kind: 'recurring' }),
      named({ kind: 'refunds' }),
      named({ shard: '1/4' }),
      named({ shard: '1/40' }),
    ];
    const prefixes = [first, ...others].map((outputs) => outputs.prefix ?? '');
    const paths = [first, ...others].map((outputs) => outputs.path);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    expect(new Set(paths).size).toBe(paths.length);
    // A restore-keys prefix matches every key it begins: no journal's prefix may begin another's.
    for (const prefix of prefixes) expect(prefixes.filter((other) => other.startsWith(prefix))).toEqual([prefix]);
    expect(named({ shard: '2 / 4', environment: 'eu,west' }).prefix).toMatch(
      /^einvoice-journal-eu_west-single-\w+-2-of-4-$/,
    );
  });

  it('keeps the refunds of a file in another journal than the invoices created from it', () => {
    const created = named();
    const refunded = named({ kind: 'refunds' });
    expect(refunded.prefix).toMatch(/^einvoice-journal-staging-refunds-[0-9a-f]{16}-all-$/);
    expect(refunded.path).not.toBe(created.path);
    expect(refunded.prefix?.startsWith(created.prefix ?? '')).toBe(false);
    expect(created.prefix?.startsWith(refunded.prefix ?? '')).toBe(false);
  });

  it('saves a written journal under its prefix and a hash of its content, and nothing when there is no journal', () => {
    const prefix = named().prefix ?? '';
    const key = saveKey('{"type":"run"}\n');
    expect(key).toMatch(new RegExp(`^${prefix}[0-9a-f]{16}$`));
    expect(saveKey('{"type":"run"}\n{"type":"created"}\n')).not.toBe(key);
    expect(saveKey('{"type":"run"}\n')).toBe(key);
    expect(saveKey(undefined)).toBeUndefined();
    expect(saveKey('')).toBeUndefined();
  });

  it('does not save again the journal it restored, unchanged', () => {
    const key = saveKey('{"type":"run"}\n');
    expect(saveKey('{"type":"run"}\n', key)).toBeUndefined();
    expect(saveKey('{"type":"run"}\n{"type":"created"}\n', key)).toMatch(/^einvoice-journal-/);
  });

  it('saves after every run but a dry run, whatever its outcome', () => {
    expect(step('Name the journal to save').if).toBe("always() && inputs.dry-run != 'true'");
    expect(save.if).toBe("always() && steps.journal-save.outputs.key != ''");
  });
});

describe('action.yml: which einvoice it runs', () => {
  const download = 'https://github.com/merchant/einvoice/releases/download';
  const sha = '0123456789abcdef0123456789abcdef01234567';

  /** Runs "Choose einvoice" taken at `ref`, with a stub gh listing `releases` and a copy of the Action's files. */
  function choose(
    ref: string,
    given: Record<string, string> = {},
    releases = ['v0.9.0', 'v1.2.0', 'v1.10.1', 'v2.0.0'],
    stubs: Record<string, string> = {},
  ) {
    const target = step('Choose einvoice');
    const folder = tempDir();
    const env = stepEnv(target, inputsWith(given), {
      'github.action_ref': ref,
      'github.action_repository': 'merchant/einvoice',
      'github.action_path': actionFiles,
      'github.token': 'gh-token',
      'runner.os': 'Linux',
      'runner.arch': 'X64',
    });
    const gh = { gh: `printf '%s\\n' ${releases.join(' ')}` };
    return runStep(target, { ...env, RUNNER_TEMP: join(folder, 'runner-temp') }, folder, { ...gh, ...stubs });
  }

  /** Runs "Install einvoice" for `release`, with a stub curl that records each URL and serves a checked file. */
  function installRelease(release: string, served = 'executable') {
    const target = step('Install einvoice');
    const folder = tempDir();
    const env = stepEnv(target, inputsWith({}), {
      'steps.einvoice.outputs.release': release,
      'steps.einvoice.outputs.source-why': '',
      'steps.einvoice.outputs.sources': '',
      'steps.einvoice.outputs.commit': '',
      'steps.einvoice.outputs.node': '',
      'steps.einvoice.outputs.folder': '',
      'steps.build.outputs.cache-hit': '',
      'github.action_ref': 'v1',
      'github.action_repository': 'merchant/einvoice',
      'github.action_path': actionFiles,
      'runner.os': 'Linux',
      'runner.arch': 'X64',
    });
    const curl = [
      'for last; do :; done; while [ "$1" != -o ]; do shift; done; out="$2"',
      `printf '%s\\n' "$last" >> '${join(folder, 'urls')}'`,
      'case "$last" in',
      '  */SHA256SUMS) printf executable | sha256sum | sed "s/ -$/ einvoice-linux-x64/" > "$out" ;;',
      `  *) printf '${served}' > "$out" ;;`,
      'esac',
    ].join('\n');
    const runnerTemp = join(folder, 'runner-temp');
    mkdirSync(runnerTemp);
    const result = runStep(target, { ...env, RUNNER_TEMP: runnerTemp, GITHUB_PATH: join(folder, 'path') }, folder, {
      curl,
    });
    const urls = existsSync(join(folder, 'urls')) ? readFileSync(join(folder, 'urls'), 'utf8').trim().split('\n') : [];
    return { ...result, urls };
  }

  it('installs the newest release of the line a moving tag names (@v1 is v1.10.1, not v1 nor v2)', () => {
    expect(choose('v1').outputs).toEqual({ release: 'v1.10.1' });
    const run = installRelease('v1.10.1');
    expect(run.status, run.stderr).toBe(0);
    expect(run.urls).toEqual([`${download}/v1.10.1/einvoice-linux-x64`, `${download}/v1.10.1/SHA256SUMS`]);
    expect(run.stdout).toContain('::notice::einvoice v1.10.1');
  });

  it('installs the release a full version names, from the ref or the version input', () => {
    expect(choose('v1.2.0').outputs).toEqual({ release: 'v1.2.0' });
    expect(choose('v1', { version: '0.9.0' }).outputs).toEqual({ release: 'v0.9.0' });
    expect(choose('main', { version: '1' }).outputs).toEqual({ release: 'v1.10.1' });
    expect(installRelease('v0.9.0').urls[0]).toBe(`${download}/v0.9.0/einvoice-linux-x64`);
  });

  it("refuses a download whose checksum is not the release's, and puts nothing on PATH", () => {
    const run = installRelease('v1.2.0', 'tampered');
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/FAILED|did NOT match/);
    expect(existsSync(join(run.folder, 'path'))).toBe(false);
  });

  it('builds from source when no release matches the ref: none at all, a line or a tag without one, a branch, a commit', () => {
    const cases: Array<[string, string[], RegExp]> = [
      ['v1', [], /has no release v1\.x/],
      ['v3', ['v1.2.0'], /has no release v3\.x/],
      ['v1.3.0', ['v1.2.0'], /has no release v1\.3\.0/],
      ['main', ['v1.2.0'], /main is no release/],
      [sha, ['v1.2.0'], new RegExp(`${sha} is no release`)],
    ];
    for (const [ref, releases, why] of cases) {
      const run = choose(ref, {}, releases);
      expect(run.status, `${ref}: ${run.stdout}`).toBe(0);
      expect(run.outputs.release, ref).toBeUndefined();
      expect(run.outputs['source-why'], ref).toMatch(why);
      expect(run.outputs.key, ref).toMatch(/^einvoice-source-Linux-X64-node\d+-[0-9a-f]{64}$/);
    }
    expect(choose(sha).outputs.commit).toBe(sha);
    expect(choose('main').outputs.commit).toBe('');
  });

  it('stops when the releases cannot be listed, rather than take that for no release', () => {
    const run = choose('v1', {}, [], { gh: 'echo "HTTP 502: Bad Gateway" >&2; exit 1' });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('HTTP 502');
    expect(run.outputs).toEqual({});
  });

  it('builds from source when the version input says source, whatever releases there are', () => {
    const run = choose('v1', { version: 'source' });
    expect(run.outputs['source-why']).toBe('the version input is source');
    expect(run.outputs.release).toBeUndefined();
  });

  it('refuses a version input that names no release, naming the input, and builds nothing', () => {
    for (const [version, said] of [
      ['3', /merchant\/einvoice has no release v3\.x/],
      ['latest', /it must be a release/],
    ] as const) {
      const run = choose('main', { version });
      expect(run.status, version).toBe(2);
      expect(run.stdout, version).toMatch(new RegExp(`^::error[^:]*::The input version is '${version}'`, 'm'));
      expect(run.stdout, version).toMatch(said);
      expect(run.outputs, version).toEqual({});
    }
  });

  it('keys the build by the files it is made of, the platform and the Node.js major', () => {
    const key = choose('main').outputs.key ?? '';
    expect(choose(sha).outputs.key).toBe(key);
    const edited = copyOfRepository('action-edited');
    writeFileSync(join(edited, 'src', 'version.ts'), '// edited\n', { flag: 'a' });
    const target = step('Choose einvoice');
    const editedKey = runStep(
      target,
      {
        ...stepEnv(target, inputsWith({}), {
          'github.action_ref': 'main',
          'github.action_repository': 'merchant/einvoice',
          'github.action_path': edited,
          'github.token': 'gh-token',
          'runner.os': 'Linux',
          'runner.arch': 'X64',
        }),
        RUNNER_TEMP: tempDir(),
      },
      tempDir(),
      { gh: 'true' },
    ).outputs.key;
    expect(editedKey).toMatch(/^einvoice-source-Linux-X64-node\d+-[0-9a-f]{64}$/);
    expect(editedKey).not.toBe(key);
    // An older node: the build brings the lockfile's Node.js 24, and the key says so.
    const older = choose('main', {}, [], { node: '[ "$1" = -p ] && echo 20' });
    expect(older.outputs.key).toMatch(/^einvoice-source-Linux-X64-lockfile-node-[0-9a-f]{64}$/);
    expect(older.outputs.node).toBe('');
  });
});

/** A run of the Action's step refused for an input its kind does not take: exit 2, the ::error:: line, no einvoice. */
function expectRefused(
  run: { status: number | null; stdout: string; argv?: unknown },
  input: string,
  value: string,
  kind: string,
) {
  expect(run.status, input).toBe(2);
  expect(run.stdout, input).toMatch(
    new RegExp(`^::error[^:]*::The input ${input} is '${value}': kind ${kind} does not take it`, 'm'),
  );
  expect(run.argv, input).toBeUndefined();
}
