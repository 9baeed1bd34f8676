import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFaultFlags, serveSandbox } from '../../src/commands/sandbox/serve.js';
import { UsageError } from '../../src/errors.js';
import { statisticsSchema } from '../../src/schemas/index.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { call, createInvoice, singleInvoice } from './support.js';
import { runSpawned, type SpawnedRun } from '../helpers/spawned.js';
import { tempHome } from '../helpers/home.js';

/** Spawns `einvoice sandbox serve ...args` (whose output is its token) and resolves once its first line is out. */
async function serve(args: string[]) {
  const run = runSpawned(['sandbox', 'serve', ...args], { printsToken: true });
  await run.waitFor('stdout', '\n');
  return { run, firstLine: run.output.stdout.slice(0, run.output.stdout.indexOf('\n')) };
}

/** Sends a signal and resolves with how the process ended. */
async function stop(run: SpawnedRun, signal: NodeJS.Signals = 'SIGTERM') {
  run.child.kill(signal);
  const { code, signal: exitSignal } = await run;
  return { code, signal: exitSignal };
}

describe('einvoice sandbox serve', () => {
  it('prints one JSON line with --json, serves on it, and exits 0 on SIGTERM', async () => {
    const served = await serve(['--port', '0', '--json']);
    const sandbox = JSON.parse(served.firstLine) as RunningSandbox;
    expect(Object.keys(sandbox).sort()).toEqual(['token', 'url']);
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await call(sandbox, 'GET', '/invoice-api/invoices/statistics');
    expect(statisticsSchema.parse(response.body).allInvoices.totalCount).toBe(0);
    expect(await stop(served.run)).toEqual({ code: 0, signal: null });
    expect(served.run.output.stdout).toBe(`${served.firstLine}\n`);
  });

  it('serves the dashboard with --ui and names its address', async () => {
    const served = await serve(['--port', '0', '--json', '--ui']);
    const sandbox = JSON.parse(served.firstLine) as RunningSandbox & { dashboard: string };
    expect(Object.keys(sandbox).sort()).toEqual(['dashboard', 'token', 'url']);
    expect(sandbox.dashboard).toBe(`${sandbox.url}/__sandbox/ui/`);
    const page = await fetch(sandbox.dashboard);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>einvoice sandbox</title>');
    expect(await stop(served.run)).toEqual({ code: 0, signal: null });
  });

  it('prints where it listens first, then the token, and exits 0 on SIGINT', async () => {
    const served = await serve(['--port', '0', '--token', 'local-dev', '--demo', '--fault', '503=0.5', '--seed', '7']);
    const match = /^Sandbox listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(served.firstLine);
    expect(match).not.toBeNull();
    const url = match?.[1] ?? '';
    const faults = await call({ url, token: 'local-dev', close: async () => {} }, 'GET', '/__sandbox/faults');
    expect(faults.body).toEqual({ latencyMs: 0, faults: { '503': 0.5 }, seed: 7 });
    expect(await stop(served.run, 'SIGINT')).toEqual({ code: 0, signal: null });
    expect(served.run.output.stdout).toMatch(/\nToken: local-dev\n/);
    // What to do next is a notice: stderr, so that stdout is what it serves.
    expect(served.run.output.stdout).not.toContain('Try:');
    expect(served.run.output.stderr).toContain(`Try: EINVOICE_BASE_URL=${url} EINVOICE_TOKEN=local-dev einvoice stats`);
    expect(served.run.output.stderr).toContain('Stop with Ctrl-C.');
  });

  it('shares a state file between two processes without losing an invoice', async () => {
    const stateFile = join(tempHome(), 'shared', 'sandbox.sqlite');
    const servers = await Promise.all([0, 1].map(() => serve(['--port', '0', '--json', '--state', stateFile])));
    const sandboxes = servers.map((served) => JSON.parse(served.firstLine) as RunningSandbox);
    const numbers = await Promise.all(
      sandboxes.flatMap((sandbox, server) =>
        Array.from({ length: 10 }, (_, i) =>
          createInvoice(sandbox, 'single', singleInvoice({ businessReference: `P${server}-${i}` })),
        ),
      ),
    );
    expect(new Set(numbers).size).toBe(20);
    for (const sandbox of sandboxes) {
      const stats = await call(sandbox, 'GET', '/invoice-api/invoices/statistics');
      expect(stats.body.allInvoices.totalCount).toBe(20);
    }
    for (const served of servers) expect((await stop(served.run)).code).toBe(0);
  });

  it('exits 2 when the port is taken, and 10 when the state file is not a sandbox database, naming it', async () => {
    const taken = await startSandbox();
    try {
      const busy = await runSpawned(['sandbox', 'serve', '--port', new URL(taken.url).port]);
      expect(busy.code).toBe(2);
      expect(busy.stderr).toMatch(/already in use/);
    } finally {
      await taken.close();
    }
    const home = tempHome();
    writeFileSync(join(home, 'state.json'), '[1, 2, 3]');
    const corrupt = await runSpawned(['sandbox', 'serve', '--port', '0', '--state', 'state.json'], {
      env: { HOME: home },
    });
    expect(corrupt.code).toBe(10);
    expect(corrupt.stderr).toContain(
      `The sandbox's state file ${join(home, 'state.json')} is not a database einvoice made: it is not a SQLite file.`,
    );
    expect(corrupt.stderr).toContain('Or give sandbox serve --state another file.');
  });

  it('exits 2 naming --fault when a fault flag is wrong', async () => {
    const result = await runSpawned(['sandbox', 'serve', '--port', '0', '--fault', 'boom=1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--fault');
    expect(result.stdout).toBe('');
  });
});

describe('serveSandbox', () => {
  it('serves until the stop it is given, then closes the sandbox', async () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const context = { stdin: new PassThrough(), stdout, stderr, env: {}, cwd: tempHome() };
    let stopServing = () => {};
    const stopped = new Promise<void>((resolve) => (stopServing = resolve));
    let disposed = false;
    const serving = serveSandbox(
      { port: 0, host: '127.0.0.1', json: true, input: false, color: false, ledger: true, token: 'in-process' },
      context,
      () => ({ stopped, dispose: () => (disposed = true) }),
    );
    const [line] = (await once(stdout, 'data')) as [Buffer];
    const sandbox = JSON.parse(line.toString()) as RunningSandbox;
    expect(sandbox.token).toBe('in-process');
    expect((await call(sandbox, 'GET', '/invoice-api/invoices/statistics')).status).toBe(200);
    stopServing();
    await serving;
    expect(disposed).toBe(true);
    await expect(fetch(`${sandbox.url}/__sandbox/clock`)).rejects.toThrow();
  });
});

describe('parseFaultFlags', () => {
  it('reads KIND=RATE flags, latency and seed', () => {
    expect(parseFaultFlags({ fault: ['503=0.05', 'drop-after-commit=0.02', '503=0.1'], latency: 20, seed: 7 })).toEqual(
      { faults: { '503': 0.1, 'drop-after-commit': 0.02 }, latencyMs: 20, seed: 7 },
    );
  });

  it.each([['503'], ['503='], ['nope=0.1'], ['503=2'], ['503=abc'], ['500=0.6', '503=0.6']])(
    'refuses %s with an issue on --fault',
    (...fault) => {
      try {
        parseFaultFlags({ fault });
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        expect((error as UsageError).issues.map((issue) => issue.path)).toContain('--fault');
      }
    },
  );
});
