import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { CommandContext } from '../src/context.js';
import { ExitCode, exitCodeTable } from '../src/errors.js';
import { helpTopic, helpTopics } from '../src/help-topics.js';
import { runInProcess } from './helpers/in-process.js';
import { buildProgram } from '../src/program.js';

// `einvoice help <topic>`, the root's help and each command's, run in this process (`runInProcess`).

const src = new URL('../src/', import.meta.url);

/** Every command path under the root ("stats", "create single", ...). */
function commandPaths(): string[] {
  const paths: string[] = [];
  const visit = (command: CommandUnknownOpts, path: string[]) => {
    for (const sub of command.commands) {
      paths.push([...path, sub.name()].join(' '));
      visit(sub, [...path, sub.name()]);
    }
  };
  const sink = { write: () => true } as unknown as CommandContext['stdout'];
  visit(buildProgram({ stdin: process.stdin, stdout: sink, stderr: sink, env: {}, cwd: process.cwd() }), []);
  return paths;
}

/** The text of every file of src/, by path. */
function sources(): Map<string, string> {
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('.ts'));
  return new Map(files.map((path) => [path, readFileSync(new URL(path, src), 'utf8')]));
}

describe('einvoice help <topic>', () => {
  it('exit-codes lists every exit code, 0 to 11, 130 and 143, and nothing else', async () => {
    const result = await runInProcess(['help', 'exit-codes']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const listed = result.stdout
      .split('\n')
      .map((line) => /^ {2}(\d+) +\S/.exec(line)?.[1])
      .filter((code) => code !== undefined)
      .map(Number);
    expect(listed).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 130, 143]);
    expect(listed).toEqual(Object.values(ExitCode));
    for (const { meaning } of exitCodeTable) expect(result.stdout).toContain(meaning);
  });

  it('environment names every EINVOICE_ variable the CLI reads, EINVOICE_TOKEN first of all', async () => {
    const result = await runInProcess(['help', 'environment']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('EINVOICE_TOKEN');
    const read = new Set<string>();
    for (const text of sources().values()) {
      for (const [, name] of text.matchAll(/(?:env|environment)\.(EINVOICE_[A-Z_]+)/g)) read.add(name ?? '');
    }
    expect([...read].sort()).toEqual(
      expect.arrayContaining(['EINVOICE_BASE_URL', 'EINVOICE_CONFIG', 'EINVOICE_ENV', 'EINVOICE_TOKEN']),
    );
    for (const name of read) expect(result.stdout, name).toContain(name);
  });

  it.each(Object.keys(helpTopics))('%s prints its topic on stdout, within 80 columns', async (name) => {
    const result = await runInProcess(['help', name]);
    expect(result).toEqual({ code: 0, stdout: helpTopic(name), stderr: '' });
    expect(result.stdout.length).toBeGreaterThan(200);
    for (const line of result.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  it('leaves help <command> to commander, and refuses a word that is neither, naming the nearest', async () => {
    expect(await runInProcess(['help', 'stats'])).toEqual(await runInProcess(['stats', '--help']));
    expect((await runInProcess(['help', 'stats'])).stdout).toMatch(/^Usage: einvoice stats /);
    expect(await runInProcess(['help', 'exit-code'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "✖ No command or help topic 'exit-code'.\nDid you mean exit-codes?\n",
    });
    expect((await runInProcess(['help', 'statz'])).stderr).toContain('Did you mean stats?');
    expect(await runInProcess(['help', 'payroll'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `✖ No command or help topic 'payroll'.\nHelp topics: ${Object.keys(helpTopics).join(', ')}.\n`,
    });
  });

  it('every topic an error or a help text names exists', () => {
    const commands = new Set(commandPaths().map((path) => path.split(' ')[0]));
    const named: string[] = [];
    for (const [path, text] of sources()) {
      for (const [, word] of text.matchAll(/einvoice help ([a-z][a-z-]*)/g)) named.push(`${word} (${path})`);
    }
    expect(named.length).toBeGreaterThanOrEqual(5);
    for (const entry of named) {
      const word = entry.split(' ')[0] ?? '';
      expect(Object.hasOwn(helpTopics, word) || commands.has(word), entry).toBe(true);
    }
  });
});

describe('errors that send the merchant to read name the topic', () => {
  it('a bulk run from stdin without a journal: see: einvoice help journal', async () => {
    const result = await runInProcess(['create', 'single', '--file', '-'], { input: '{"note":"a"}\n{"note":"b"}\n' });
    expect(result.code, result.stderr).toBe(ExitCode.Usage);
    expect(result.stderr).toContain('--journal PATH is required');
    expect(result.stderr).toContain('\nsee: einvoice help journal\n');
  });

  it('an environment without a token: see: einvoice help environment', async () => {
    const result = await runInProcess(['stats', '--env', 'staging'], {
      env: { EINVOICE_BASE_URL: 'https://staging.example.com' },
    });
    expect(result.code, result.stderr).toBe(ExitCode.Auth);
    expect(result.stderr).toContain('Set EINVOICE_TOKEN');
    expect(result.stderr).toContain('\nsee: einvoice help environment\n');
  });

  it('an invoice with a refused date and amount: see: einvoice help dates, einvoice help money', async () => {
    const result = await runInProcess([
      'create',
      'single',
      '--customer-name',
      'Amr Hassan',
      '--customer-mobile',
      '+201012345678',
      '--amount',
      '12,50',
      '--sending-date',
      '2026-02-30',
      '--release-date',
      '2026-02-01',
      '--expiry-date',
      '2026-03-31',
      '--note',
      'Order 1043',
    ]);
    expect(result.code, result.stderr).toBe(ExitCode.Usage);
    expect(result.stderr).toContain('February 2026 has no 30th day');
    expect(result.stderr).toContain('written with a decimal point: 12.50');
    expect(result.stderr).toMatch(/\nsee: einvoice help dates, einvoice help money\n$/);
  });

  it('a sheet with a column that is no invoice field: see: einvoice help csv', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'einvoice-help-'));
    writeFileSync(join(folder, 'invoices.csv'), 'customer.name,custmer.mobile\nAmr,+201012345678\n');
    const result = await runInProcess(['create', 'single', '--file', 'invoices.csv', '--dry-run'], { cwd: folder });
    expect(result.code, result.stderr).toBe(ExitCode.Usage);
    expect(result.stderr).toContain('did you mean customer.mobile?');
    expect(result.stderr).toContain('\nsee: einvoice help csv\n');
  });
});

describe('--help', () => {
  it('of the root lists the global options, every exit code of the one table, and the topics', async () => {
    const result = await runInProcess(['--help']);
    expect(result.code).toBe(0);
    for (const flag of ['--env', '--config', '--json', '--verbose', '--timeout', '--max-retry-after', '--no-input'])
      expect(result.stdout).toContain(flag);
    for (const { code, meaning } of exitCodeTable)
      expect(result.stdout).toContain(`\n  ${String(code).padEnd(5)}${meaning}\n`);
    expect(result.stdout).toContain(`  ${Object.keys(helpTopics).join(', ')}\n`);
  });

  it('of every command leaves the global options to the root, and says so in one line', async () => {
    const paths = commandPaths();
    expect(paths.length).toBeGreaterThanOrEqual(17);
    for (const path of paths) {
      const result = await runInProcess([...path.split(' '), '--help']);
      expect(result.code, path).toBe(0);
      expect(result.stdout, path).not.toContain('Global Options:');
      expect(result.stdout, path).not.toContain('--max-retry-after');
      expect(result.stdout, path).not.toContain('--no-color');
      expect(result.stdout, path).toContain('Global options (--env, --json, ...): see einvoice --help.');
    }
  });
});
