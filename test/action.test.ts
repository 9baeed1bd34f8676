import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { encodingNames } from '../src/input/text-encoding.js';
import { tempDir } from './bulk/helpers.js';

// The GitHub Action (action.yml): its inputs, its journal's cache keys, and the bash of its steps run as the runner
// runs them, each `${{ }}` of a step's env filled in from a table, with a stub einvoice that records its arguments.

interface Step {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
interface Action {
  inputs: Record<string, { default?: string; required?: boolean }>;
  runs: { steps: Step[] };
}

const action = parse(readFileSync(new URL('../action.yml', import.meta.url), 'utf8')) as Action;
const steps = action.runs.steps;

function step(name: string): Step {
  const found = steps.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`action.yml has no step named "${name}"`);
  return found;
}

/** The inputs as a workflow that names only the required ones gets them: every default, plus `given`. */
function inputsWith(given: Record<string, string>): Record<string, string> {
  const defaults = Object.entries(action.inputs).map(([name, input]) => [name, input.default ?? '']);
  return { ...Object.fromEntries(defaults), file: 'invoices.csv', environment: 'staging', ...given };
}

/** A step's env with each value's `${{ expression }}` taken from `inputs` or `outputs`; any other throws. */
function stepEnv(target: Step, inputs: Record<string, string>, outputs: Record<string, string> = {}) {
  return Object.fromEntries(
    Object.entries(target.env ?? {}).map(([name, value]) => {
      const expression = /^\$\{\{\s*(.+?)\s*\}\}$/.exec(value)?.[1];
      const input = /^inputs\.([\w-]+)$/.exec(expression ?? '')?.[1];
      const filled = input !== undefined ? inputs[input] : outputs[expression ?? ''];
      if (filled === undefined) throw new Error(`${target.name}: no value in this test for ${name}: ${value}`);
      return [name, filled];
    }),
  );
}

/** Runs a step's script as `shell: bash` does, in `folder`, with only `env` and a stub einvoice first on PATH. */
function runStep(target: Step, env: Record<string, string>, folder = tempDir(), stubs: Record<string, string> = {}) {
  const script = join(folder, 'step.sh');
  writeFileSync(script, target.run ?? '');
  const bin = join(folder, 'bin');
  const argvFile = join(folder, 'argv');
  const outputFile = join(folder, 'github-output');
  writeFileSync(outputFile, '');
  mkdirSync(bin);
  writeFileSync(join(bin, 'einvoice'), `#!/usr/bin/env bash\nprintf '%s\\0' "$@" > '${argvFile}'\n`, { mode: 0o755 });
  for (const [name, script] of Object.entries(stubs))
    writeFileSync(join(bin, name), `#!/usr/bin/env bash\n${script}\n`, { mode: 0o755 });
  const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
    cwd: folder,
    encoding: 'utf8',
    env: { PATH: `${bin}:${process.env.PATH ?? ''}`, GITHUB_OUTPUT: outputFile, ...env },
  });
  const argv = existsSync(argvFile) ? readFileSync(argvFile, 'utf8').split('\0').slice(0, -1) : undefined;
  const outputs = Object.fromEntries(
    readFileSync(outputFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, argv, outputs, folder };
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
    const settings = ['encoding', 'date-format', 'delimiter', 'ignore-column', 'allow-expired', 'format'];
    const bulk = ['drop-unknown-fields', 'concurrency', 'rate', 'retries', 'stop-after-failures', 'resend-uncertain'];
    const checks = ['strict', 'amount'];
    const refunds = ['expect-count', 'expect-total', 'mark-refunded', 'mark-not-refunded'];
    for (const name of [...settings, ...bulk, ...checks, ...refunds]) {
      expect(action.inputs, name).toHaveProperty(name);
      expect(Object.values(step('Create the invoices').env ?? {}), name).toContain(`\${{ inputs.${name} }}`);
    }
  });

  it('is strict by default: an unattended run refuses what a person would have looked at', () => {
    expect(action.inputs.strict?.default).toBe('true');
    expect(action.inputs.amount?.default).toBe('');
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
      format: 'xlsx',
      encoding: 'cp1256',
      'date-format': 'MM/DD/YYYY',
      strict: 'yes',
      'dry-run': 'True',
      'skip-invalid': '1',
      'allow-expired': 'on',
      'drop-unknown-fields': 'y',
      'resend-uncertain': 'no',
    };
    for (const [input, value] of Object.entries(refused)) {
      const run = create({ [input]: value });
      expect(run.status, input).toBe(2);
      expect(run.stdout, input).toMatch(new RegExp(`^::error[^:]*::The input ${input} is '${value}'`, 'm'));
      expect(run.argv, input).toBeUndefined();
    }
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
    };
    for (const [input, value] of Object.entries(invoiceOnly))
      expectRefused(refund({ [input]: value }), input, value, 'refunds');
    // Their defaults, given as the words they are, are no setting.
    for (const input of ['allow-expired', 'drop-unknown-fields', 'resend-uncertain'])
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
  const restore = caches.find((candidate) => candidate.uses?.startsWith('actions/cache/restore@'));
  const save = caches.find((candidate) => candidate.uses?.startsWith('actions/cache/save@'));

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
    expect(restore?.with?.['restore-keys']).toBe('${{ steps.journal.outputs.prefix }}');
    expect(save?.with?.key).toBe('${{ steps.journal-save.outputs.key }}');
    expect(save?.with?.path).toBe(restore?.with?.path);
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
    expect(save?.if).toBe("always() && steps.journal-save.outputs.key != ''");
  });
});

describe('action.yml: the release it installs', () => {
  /** Runs "Install einvoice" taken at `ref`, with stubs of gh (listing `releases`) and curl (recording each URL). */
  function install(
    ref: string,
    given: Record<string, string> = {},
    releases = ['v0.9.0', 'v1.2.0', 'v1.10.1', 'v2.0.0'],
  ) {
    const target = step('Install einvoice');
    const folder = tempDir();
    const env = stepEnv(target, inputsWith(given), {
      'github.action_ref': ref,
      'github.action_repository': 'merchant/einvoice',
      'github.token': 'gh-token',
      'runner.os': 'Linux',
      'runner.arch': 'X64',
    });
    const stubs = {
      gh: `printf '%s\\n' ${releases.join(' ')}`,
      curl: [
        'for last; do :; done; while [ "$1" != -o ]; do shift; done; out="$2"',
        `printf '%s\\n' "$last" >> '${join(folder, 'urls')}'`,
        'case "$last" in',
        '  */SHA256SUMS) printf executable | sha256sum | sed "s/ -$/ einvoice-linux-x64/" > "$out" ;;',
        '  *) printf executable > "$out" ;;',
        'esac',
      ].join('\n'),
    };
    const runnerTemp = join(folder, 'runner-temp');
    mkdirSync(runnerTemp);
    const result = runStep(
      target,
      { ...env, RUNNER_TEMP: runnerTemp, GITHUB_PATH: join(folder, 'path') },
      folder,
      stubs,
    );
    const urls = existsSync(join(folder, 'urls')) ? readFileSync(join(folder, 'urls'), 'utf8').trim().split('\n') : [];
    return { ...result, urls };
  }

  const download = 'https://github.com/merchant/einvoice/releases/download';

  it('installs the newest release of the line a moving tag names (@v1 is v1.10.1, not v1 nor v2)', () => {
    const run = install('v1');
    expect(run.status, run.stderr).toBe(0);
    expect(run.urls).toEqual([`${download}/v1.10.1/einvoice-linux-x64`, `${download}/v1.10.1/SHA256SUMS`]);
    expect(run.stdout).toContain('::notice::einvoice v1.10.1');
  });

  it('installs the release a full version names, from the ref or the version input', () => {
    expect(install('v1.2.0').urls[0]).toBe(`${download}/v1.2.0/einvoice-linux-x64`);
    expect(install('v1', { version: '0.9.0' }).urls[0]).toBe(`${download}/v0.9.0/einvoice-linux-x64`);
  });

  it('stops with an ::error:: line and downloads nothing when the line has no release', () => {
    const run = install('v3');
    expect(run.status).not.toBe(0);
    expect(run.stdout).toMatch(/^::error::merchant\/einvoice has no release v3\.x to install/m);
    expect(run.urls).toEqual([]);
  });

  it('takes the newest release for a branch or a commit, and says so', () => {
    const run = install('main');
    expect(run.urls[0]).toBe('https://github.com/merchant/einvoice/releases/latest/download/einvoice-linux-x64');
    expect(run.stdout).toMatch(/^::notice::einvoice from the newest release .*main/m);
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
