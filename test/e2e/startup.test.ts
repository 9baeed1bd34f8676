import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempHome } from '../helpers/cli.js';
import { startTestServer, statisticsHandler, type TestServer } from '../helpers/http-server.js';
import { localProfile, writeProfile } from '../helpers/profile.js';

// Start-up loads what a command uses and nothing else (the timings are `npm run bench`'s; this checks what loads).
// A preloaded module records every module a run resolved, its own files and Node's built-ins, whoever asked.

const repo = fileURLToPath(new URL('../../', import.meta.url));

/** The files of this package (`dist/index.js`) and the Node.js built-ins (`node:http`) that `einvoice args` loads. */
async function modulesLoaded(args: string[], home: string) {
  const record = join(home, 'modules.json');
  const probe = join(home, 'record-modules.mjs');
  writeFileSync(
    probe,
    [
      "import { registerHooks } from 'node:module';",
      "import { writeFileSync } from 'node:fs';",
      'const seen = new Set();',
      'registerHooks({ resolve: (specifier, context, next) => { const found = next(specifier, context); seen.add(found.url); return found; } });',
      `process.on('exit', () => writeFileSync(${JSON.stringify(record)}, JSON.stringify([...seen])));`,
    ].join('\n'),
  );
  const result = await runCli(args, { env: { HOME: home, NODE_OPTIONS: `--import ${probe}` } });
  const urls = JSON.parse(readFileSync(record, 'utf8')) as string[];
  const own = urls
    .filter((url) => url.startsWith('file:') && fileURLToPath(url).startsWith(repo))
    .map((url) => fileURLToPath(url).slice(repo.length));
  return { result, own, builtins: urls.filter((url) => url.startsWith('node:')) };
}

describe('start-up', () => {
  let server: TestServer;
  let home: string;
  beforeAll(async () => {
    server = await startTestServer(statisticsHandler());
    home = tempHome();
    writeProfile(home, localProfile(server.url, 'startup-token-0123456789'));
  });
  afterAll(() => server.close());

  it('--help and --version into a pipe load bin/ and dist/start.js, and nothing else', async () => {
    for (const args of [['--help'], ['stats', '--help'], ['--version']]) {
      const { result, own, builtins } = await modulesLoaded(args, tempHome());
      expect(result.code, args.join(' ')).toBe(0);
      expect(own.filter((file) => !file.startsWith('node_modules/'))).toEqual(['bin/einvoice.js', 'dist/start.js']);
      expect(builtins.filter((name) => ['node:http', 'node:net', 'node:stream'].includes(name))).toEqual([]);
    }
  });

  it('stats loads the HTTP client, and neither the sandbox, the prompts, the spinner nor bulk creation', async () => {
    const { result, own, builtins } = await modulesLoaded(['stats', '--json'], home);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveProperty('paidInvoices');
    expect(own).toContain('dist/index.js');
    expect(builtins).toContain('node:http');
    // The chunks each of those is built into are named after the module a command imports (scripts/build.mjs).
    expect(own.filter((file) => /^dist\/(sandbox|inquirer|prompts|ora|bulk|serve|admin)-/.test(file))).toEqual([]);
  });
});
