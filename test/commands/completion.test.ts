import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { quote } from 'shell-quote';
import { beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/in-process.js';
import { tempHome } from '../helpers/home.js';

// The bash script is run by bash itself: sourced, then `_einvoice` called as bash's completion calls it, with the
// words of a command line in COMP_WORDS and the cursor's word in COMP_CWORD; what it puts in COMPREPLY is offered.

let folder: string;
let script: string;

beforeAll(async () => {
  const result = await runInProcess(['completion', 'bash']);
  expect(result.code, result.stderr).toBe(0);
  folder = tempHome();
  script = join(folder, 'einvoice.bash');
  writeFileSync(script, result.stdout);
  writeFileSync(join(folder, 'refund.json'), '{}');
});

/** What bash offers for the last of `words` (the word under the cursor, possibly empty). */
async function complete(...words: string[]): Promise<string[]> {
  const program = [
    `source ${quote([script])}`,
    `COMP_WORDS=(${quote(['einvoice', ...words])})`,
    `COMP_CWORD=${words.length}`,
    '_einvoice',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const { stdout } = await promisify(execFile)('bash', ['--norc', '--noprofile', '-c', program], { cwd: folder });
  return stdout.split('\n').filter(Boolean);
}

describe('bash completion', () => {
  it('offers the commands, and the subcommands of a group', async () => {
    expect(await complete('')).toEqual([
      'stats',
      'refund',
      'create',
      'invoices',
      'sandbox',
      'config',
      'schema',
      'template',
      'completion',
    ]);
    expect(await complete('sa')).toEqual(['sandbox']);
    expect(await complete('sandbox', '')).toEqual([
      'serve',
      'ui',
      'reset',
      'pay',
      'cancel',
      'expire',
      'outbox',
      'export',
    ]);
    expect(await complete('config', '')).toEqual(['init', 'show', 'check']);
    expect(await complete('--env', 'staging', 'create', '')).toEqual(['single', 'recurring']);
  });

  it("offers a command's flags and the global ones, but not hidden ones", async () => {
    const stats = await complete('stats', '--');
    expect(stats).toEqual(expect.arrayContaining(['--fail-if', '--json', '--env', '--help']));
    expect(stats).not.toContain('--amount');

    const single = await complete('create', 'single', '--');
    expect(single).toEqual(expect.arrayContaining(['--payment-type', '--item', '--file', '--dry-run', '--timeout']));
    // Flags of the other kind, and --no-alert-on-expiry, are accepted but hidden from help and from completion.
    expect(single).not.toContain('--cycle-type');
    expect(single).not.toContain('--no-alert-on-expiry');
    expect(await complete('create', 'recurring', '--cy')).toEqual(['--cycle-type', '--cycle-value']);
    expect(await complete('create', 'recurring', '--pay')).toEqual([]);
  });

  it('offers the values of --lang, --method, --cycle-type and --env', async () => {
    expect(await complete('create', 'single', '--lang', '')).toEqual(['en-gb', 'ar-eg']);
    expect(await complete('create', 'single', '--method', 'B')).toEqual(['BOTH']);
    expect(await complete('create', 'recurring', '--cycle-type', '')).toEqual(['MONTH', 'WEEK']);
    expect(await complete('--env', '')).toEqual(['sandbox', 'staging', 'production']);
    expect(await complete('stats', '-e', 'pr')).toEqual(['production']);
    // Bash splits --env=st at "=".
    expect(await complete('stats', '--env', '=', 'st')).toEqual(['staging']);
  });

  it('offers the arguments of schema and completion once, file names after --file, nothing after --amount', async () => {
    expect(await complete('schema', '')).toEqual(['single', 'recurring', 'refund', 'config']);
    expect(await complete('schema', 'single', '')).toEqual([]);
    expect(await complete('completion', 'z')).toEqual(['zsh']);
    expect(await complete('template', '')).toEqual(['single', 'recurring']);
    expect(await complete('template', 'single', '--format', '')).toEqual(['csv', 'xlsx', 'ndjson', 'json']);
    expect(await complete('refund', '1000007', '--file', 'ref')).toEqual(['refund.json']);
    expect(await complete('refund', '1000007', '--amount', '')).toEqual([]);
  });
});

describe('zsh and fish completion', () => {
  it('zsh gets the bash script behind bashcompinit, as a file for $fpath or to source', async () => {
    const result = await runInProcess(['completion', 'zsh']);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    // compinit reads the first line of each file in $fpath to know what it completes.
    expect(lines[0]).toBe('#compdef einvoice');
    expect(lines).toContain('autoload -U +X bashcompinit && bashcompinit');
    expect(lines).toContain('complete -o default -F _einvoice_words einvoice');
    // Autoloaded as _einvoice, the body runs on the first Tab and completes it; sourced, it only registers.
    expect(result.stdout).toContain(
      'if [[ "${funcstack[1]}" == "_einvoice" ]]; then\n  _bash_complete -o default -F _einvoice_words\nfi\n',
    );
  });

  it('fish gets complete lines for commands, flags and values, without hidden flags', async () => {
    const result = await runInProcess(['completion', 'fish']);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n').slice(1);
    expect(lines.every((line) => line.startsWith('complete -c einvoice '))).toBe(true);
    expect(lines).toContain(
      "complete -c einvoice -l env -s e -x -a 'sandbox staging production' -d 'environment profile to use (staging, production, sandbox, ...)'",
    );
    expect(lines.some((line) => line.includes("-a sandbox -d 'run and drive the local sandbox service"))).toBe(true);
    const cycleType = lines.filter((line) => line.includes('-l cycle-type '));
    expect(cycleType).toHaveLength(1);
    expect(cycleType[0]).toContain("__fish_seen_subcommand_from recurring' -l cycle-type -x -a 'MONTH WEEK'");
    expect(lines.some((line) => line.includes('-l no-alert-on-expiry'))).toBe(false);
  });

  it('refuses another shell, naming the ones there are', async () => {
    const result = await runInProcess(['completion', 'powershell']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Choose one of bash, zsh, fish.');
  });
});
