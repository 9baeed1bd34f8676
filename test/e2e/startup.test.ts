import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binPath, runCli, tempHome } from '../helpers/cli.js';
import { startTestServer, statisticsHandler, type TestServer } from '../helpers/http-server.js';
import { localProfile, writeProfile } from '../helpers/profile.js';

// Start-up loads what a command uses and nothing else (the timings are `npm run bench`'s; this checks what loads).

const repo = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Runs `einvoice args` with `setup` (lines of an ES module) preloaded; at exit the module writes what `recorded` (a
 * JavaScript expression) holds then. Resolves with the run's result and that record.
 */
async function runProbed(args: string[], home: string, setup: string[], recorded: string) {
  const probeHome = tempHome();
  const record = join(probeHome, 'record.json');
  const probe = join(probeHome, 'probe.mjs');
  const write = `process.on('exit', () => writeFileSync(${JSON.stringify(record)}, JSON.stringify(${recorded})));`;
  writeFileSync(probe, ["import { writeFileSync } from 'node:fs';", ...setup, write].join('\n'));
  const result = await runCli(args, { env: { HOME: home, NODE_OPTIONS: `--import ${probe}` } });
  return { result, recorded: JSON.parse(readFileSync(record, 'utf8')) as unknown };
}

/** The files of this package that `einvoice args` loads, recorded by a preloaded module hook. */
async function filesLoaded(args: string[]) {
  const { result, recorded } = await runProbed(
    args,
    tempHome(),
    [
      "import { registerHooks } from 'node:module';",
      'const seen = new Set();',
      'registerHooks({ resolve: (specifier, context, next) => { const found = next(specifier, context); seen.add(found.url); return found; } });',
    ],
    '[...seen]',
  );
  const files = (recorded as string[])
    .filter((url) => url.startsWith('file:') && fileURLToPath(url).startsWith(repo))
    .map((url) => fileURLToPath(url).slice(repo.length));
  return { result, files };
}

/**
 * The modules of the CLI bundle (`src/api/client.ts`, `node_modules/got/...`) that a run evaluated, from the V8
 * coverage it wrote to `coverage`. esbuild wraps each module that is imported lazily in a function named after its
 * path, which runs when the module is first imported; V8's coverage counts the calls of every function.
 */
function modulesEvaluated(coverage: string): string[] {
  const evaluated = new Set<string>();
  for (const file of readdirSync(coverage)) {
    const { result: scripts } = JSON.parse(readFileSync(join(coverage, file), 'utf8')) as {
      result: { url: string; functions: { functionName: string; ranges: { count: number }[] }[] }[];
    };
    for (const script of scripts.filter(({ url }) => url.endsWith('/dist/cli.cjs'))) {
      for (const { functionName, ranges } of script.functions) {
        if (/^(src|node_modules)\/.+\.[cm]?[jt]s$/.test(functionName) && (ranges[0]?.count ?? 0) > 0) {
          evaluated.add(functionName);
        }
      }
    }
  }
  return [...evaluated];
}

/** Runs `einvoice args` with its V8 coverage recorded; resolves with its result and the modules it evaluated. */
async function runRecorded(args: string[], home: string) {
  const coverage = join(tempHome(), 'coverage');
  const result = await runCli(args, { env: { HOME: home, NODE_V8_COVERAGE: coverage } });
  return { result, evaluated: modulesEvaluated(coverage) };
}

const matching = (modules: string[], pattern: RegExp) => modules.filter((name) => pattern.test(name));

describe('start-up', () => {
  let server: TestServer;
  let home: string;
  beforeAll(async () => {
    server = await startTestServer(statisticsHandler());
    home = tempHome();
    writeProfile(home, localProfile(server.url, 'startup-token-0123456789'));
  });
  afterAll(() => server.close());

  it('--help, help topics and --version into a pipe load bin/ and dist/start.js, and nothing else', async () => {
    for (const args of [['--help'], ['stats', '--help'], ['help', 'exit-codes'], ['--version']]) {
      const { result, files } = await filesLoaded(args);
      expect(result.code, args.join(' ')).toBe(0);
      expect(files).toEqual(['bin/einvoice.js', 'dist/start.js']);
    }
  });

  it('--help rendered by commander evaluates commander, and none of the other libraries', () => {
    // Standard output is /dev/null, a character device as a terminal is: the help is rendered live.
    const coverage = join(tempHome(), 'coverage');
    const result = spawnSync(process.execPath, [binPath, 'create', 'single', '--help'], {
      env: { PATH: process.env.PATH ?? '', HOME: tempHome(), NODE_V8_COVERAGE: coverage },
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
    });
    expect(result.status, result.stderr).toBe(0);
    const evaluated = modulesEvaluated(coverage);
    expect(matching(evaluated, /^node_modules\/commander\//)).not.toEqual([]);
    expect(matching(evaluated, /^node_modules\/(got|zod|@inquirer|ora|cosmiconfig)\//)).toEqual([]);
    expect(matching(evaluated, /^src\/(sandbox|api|bulk\/send)/)).toEqual([]);
  });

  it('stats evaluates got and the client, and neither the sandbox, the prompts, the spinner nor bulk sending', async () => {
    const { result, evaluated } = await runRecorded(['stats', '--json'], home);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveProperty('paidInvoices');
    expect(matching(evaluated, /^node_modules\/got\//)).not.toEqual([]);
    expect(evaluated).toContain('src/api/client.ts');
    expect(matching(evaluated, /^node_modules\/(@inquirer|ora)\//)).toEqual([]);
    expect(matching(evaluated, /^src\/(sandbox|input\/prompts|bulk\/send)/)).toEqual([]);
  });

  it("stats makes no Intl.ListFormat: got's type checker loads without ICU's data (src/api/got.ts)", async () => {
    const { result, recorded } = await runProbed(
      ['stats', '--json'],
      home,
      [
        'const Real = Intl.ListFormat;',
        'let made = 0;',
        'Intl.ListFormat = function (...args) { made += 1; return new Real(...args); };',
      ],
      '{ made }',
    );
    expect(result.code, result.stderr).toBe(0);
    expect(recorded).toEqual({ made: 0 });
  });

  it('the embedded sandbox is evaluated when a command uses it', async () => {
    const { result, evaluated } = await runRecorded(['stats', '--json'], tempHome());
    expect(result.code, result.stderr).toBe(0);
    expect(matching(evaluated, /^src\/sandbox\//)).not.toEqual([]);
  });
});
