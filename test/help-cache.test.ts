import { describe, expect, it } from 'vitest';
import { main } from '../src/index.js';
import type { CommandContext } from '../src/context.js';
import { cachedOutput, type HelpCache } from '../src/help-cache.js';
import { helpTopics } from '../src/help-topics.js';
import { renderHelpCache } from '../src/help-render.js';
import { version } from '../src/version.js';

const cache = renderHelpCache();

/** What the CLI prints on stdout for `args`, run in this process with stdout a pipe-like sink. */
async function printed(args: string[]): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const sink = { write: (text: string) => ((stdout += text), true) } as unknown as CommandContext['stdout'];
  const context: CommandContext = { stdin: process.stdin, stdout: sink, stderr: sink, env: {}, cwd: process.cwd() };
  const code = await main(['node', 'einvoice', ...args], context);
  return { code, stdout };
}

describe('renderHelpCache', () => {
  it('holds the help of every command, the root and the groups included', () => {
    expect(Object.keys(cache.helps)).toEqual(
      expect.arrayContaining(['', 'stats', 'refund', 'create', 'create single', 'create recurring', 'sandbox serve']),
    );
    expect(Object.keys(cache.helps).length).toBeGreaterThanOrEqual(18);
    expect(cache.version).toBe(version);
  });

  it("is exactly what commander prints for each command's --help", async () => {
    for (const [path, help] of Object.entries(cache.helps)) {
      const words = path ? path.split(' ') : [];
      const live = await printed([...words, '--help']);
      expect(live.code, `einvoice ${path} --help`).toBe(0);
      expect(help, `einvoice ${path} --help`).toBe(live.stdout);
    }
  });

  it('is what commander prints for `help <command>` and --version', async () => {
    expect(cachedOutput(['help', 'create'], cache)).toBe((await printed(['help', 'create'])).stdout);
    expect(cachedOutput(['help'], cache)).toBe((await printed(['help'])).stdout);
    // `help` before a subcommand's words is that subcommand's help, on the command tree as from the cache.
    const single = (await printed(['create', 'single', '--help'])).stdout;
    expect((await printed(['help', 'create', 'single'])).stdout).toBe(single);
    expect(cachedOutput(['help', 'create', 'single'], cache)).toBe(single);
    expect(cachedOutput(['--version'], cache)).toBe((await printed(['--version'])).stdout);
    expect(cachedOutput(['-V'], cache)).toBe((await printed(['-V'])).stdout);
  });

  it('holds every help topic as `einvoice help <topic>` prints it', async () => {
    expect(Object.keys(cache.topics ?? {})).toEqual(Object.keys(helpTopics));
    for (const name of Object.keys(helpTopics)) {
      const live = await printed(['help', name]);
      expect(live.code, `einvoice help ${name}`).toBe(0);
      expect(cachedOutput(['help', name], cache), `einvoice help ${name}`).toBe(live.stdout);
    }
  });
});

describe('cachedOutput', () => {
  const small: HelpCache = {
    version: '9.8.7',
    helps: { '': 'root\n', stats: 'stats\n', 'create single': 'single\n' },
    topics: { money: 'money\n' },
  };

  it.each([
    [['--version'], '9.8.7\n'],
    [['-V'], '9.8.7\n'],
    [['--help'], 'root\n'],
    [['-h'], 'root\n'],
    [['help'], 'root\n'],
    [['stats', '--help'], 'stats\n'],
    [['stats', '-h'], 'stats\n'],
    [['help', 'stats'], 'stats\n'],
    [['create', 'single', '--help'], 'single\n'],
    [['help', 'create', 'single'], 'single\n'],
    [['help', 'money'], 'money\n'],
  ])('answers %j from the cache', (args, expected) => {
    expect(cachedOutput(args, small)).toBe(expected);
  });

  it.each([
    [[]],
    [['stats']],
    [['--env', 'staging', 'stats', '--help']],
    [['stats', '--json', '--help']],
    [['create single', '--help']],
    [['unknown', '--help']],
    [['constructor', '--help']],
    [['--version', '--json']],
    [['refund', '1000007', '--help']],
    [['money', '--help']],
    [['help', 'money', 'extra']],
    [['help', 'toString']],
  ])('leaves %j to the command tree', (args) => {
    expect(cachedOutput(args, small)).toBeUndefined();
  });
});
