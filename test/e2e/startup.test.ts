import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, statisticsHandler, type TestServer } from '../helpers/http-server.js';
import { localProfile, writeProfile } from '../helpers/profile.js';
import { cliEnvironment, tempHome } from '../helpers/home.js';

// Start-up loads what a command uses and nothing else (the timings are `npm run bench`'s; this checks what loads).
// The CLI's modules as tsc compiled them (dist/index.js and its imports) keep the import graph of src/, so a resolve
// hook sees which libraries and which of einvoice's own folders a command reaches.

const repo = fileURLToPath(new URL('../../', import.meta.url));

/** The packages (`got`, `@inquirer/core`) and the dist/ folders (`dist/sandbox`) that `einvoice args` loads. */
async function modulesLoaded(args: string[], home: string) {
  const probeHome = tempHome();
  const record = join(probeHome, 'record.json');
  const probe = join(probeHome, 'probe.mjs');
  writeFileSync(
    probe,
    [
      "import { registerHooks } from 'node:module';",
      "import { writeFileSync } from 'node:fs';",
      'const seen = new Set();',
      'registerHooks({ resolve: (specifier, context, next) => { const found = next(specifier, context); seen.add(found.url); return found; } });',
      `process.on('exit', () => writeFileSync(${JSON.stringify(record)}, JSON.stringify([...seen])));`,
      `const { main } = await import(${JSON.stringify(join(repo, 'dist', 'index.js'))});`,
      'process.exitCode = await main(process.argv);',
    ].join('\n'),
  );
  mkdirSync(join(home, '.config'), { recursive: true });
  // Not `runSpawned`: the probe runs dist/ under a resolve hook rather than bin/. Spawned without blocking: the
  // test's own service answers in this process.
  const child = spawn(process.execPath, [probe, ...args], {
    cwd: home,
    env: cliEnvironment(home),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [status] = (await once(child, 'close')) as [number | null];
  const loaded = new Set<string>();
  for (const url of JSON.parse(readFileSync(record, 'utf8')) as string[]) {
    if (!url.startsWith('file:')) continue;
    const path = fileURLToPath(url);
    const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
    if (inPackage) loaded.add(inPackage[1] as string);
    else if (path.startsWith(join(repo, 'dist'))) loaded.add(path.slice(repo.length).split('/').slice(0, 2).join('/'));
  }
  return { status, stderr, loaded: [...loaded] };
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

  it('--help loads commander, and none of the other libraries', async () => {
    const { status, stderr, loaded } = await modulesLoaded(['create', 'single', '--help'], tempHome());
    expect(status, stderr).toBe(0);
    expect(loaded).toContain('commander');
    expect(loaded.filter((name) => /^(got|zod|@inquirer\/.*|ora|cosmiconfig)$/.test(name))).toEqual([]);
    expect(loaded.filter((name) => /^dist\/(sandbox|api)$/.test(name))).toEqual([]);
  });

  it('stats loads got and the client, and neither the sandbox, the prompts nor the spinner', async () => {
    const { status, stderr, loaded } = await modulesLoaded(['stats', '--json'], home);
    expect(status, stderr).toBe(0);
    expect(loaded).toEqual(expect.arrayContaining(['got', 'dist/api']));
    expect(loaded.filter((name) => /^(@inquirer\/.*|ora)$/.test(name))).toEqual([]);
    expect(loaded).not.toContain('dist/sandbox');
  });

  it('the embedded sandbox is loaded when a command uses it', async () => {
    const { status, stderr, loaded } = await modulesLoaded(['stats', '--json'], tempHome());
    expect(status, stderr).toBe(0);
    expect(loaded).toContain('dist/sandbox');
  });
});
