import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { get, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/in-process.js';
import { runSpawned } from '../helpers/spawned.js';
import { tempHome } from '../helpers/home.js';

/** Spawns `einvoice sandbox ui ...args` (whose output is its token) in `home`, in CI unless `env` says otherwise. */
function ui(home: string, args: string[], env: Record<string, string | undefined> = {}) {
  return runSpawned(['sandbox', 'ui', ...args], { home, env, printsToken: true });
}

describe('einvoice sandbox ui', () => {
  it("serves the built-in sandbox's dashboard and tells it of invoices other commands create", async () => {
    const home = tempHome();
    const served = ui(home, ['--port', '0', '--json']);
    await served.waitFor('stdout', '\n');
    const { url, dashboard } = JSON.parse(served.output.stdout) as { url: string; dashboard: string };
    expect(dashboard).toBe(`${url}/__sandbox/ui/`);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const page = await fetch(dashboard);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    // The built-in sandbox's state file, seeded with the demo invoices.
    const view = (await (await fetch(`${url}/__sandbox/dashboard`)).json()) as { invoices: unknown[] };
    expect(view.invoices).toHaveLength(8);
    expect(existsSync(join(home, '.local', 'state', 'einvoice', 'sandbox.sqlite'))).toBe(true);

    const events = await new Promise<IncomingMessage>((resolve, reject) =>
      get(`${url}/__sandbox/events`, resolve).on('error', reject),
    );
    let received = '';
    const changed = new Promise<void>((resolve) =>
      events.setEncoding('utf8').on('data', (chunk: string) => {
        received += chunk;
        if (received.includes('event: change')) resolve();
      }),
    );
    const created = await runInProcess(
      [
        ...['create', 'single', '--customer-name', 'Amr Hassan', '--customer-mobile', '+201012345678'],
        ...['--amount', '150', '--sending-date', 'today', '--release-date', 'today', '--expiry-date', '+30d'],
        ...['--note', 'Order 1043', '--yes', '--json'],
      ],
      { env: { HOME: home } },
    );
    expect(created.code, created.stderr).toBe(0);
    await changed;
    const after = (await (await fetch(`${url}/__sandbox/dashboard`)).json()) as {
      invoices: Array<{ invoiceNumber: string; customer: { name: string } }>;
    };
    expect(after.invoices[0]).toMatchObject({ invoiceNumber: '1000009', customer: { name: 'Amr Hassan' } });

    served.child.kill('SIGTERM');
    expect((await served).code).toBe(0);
    // In CI no browser is started, and nothing but the address is printed.
    expect(served.output.stderr).toBe('');
  });

  it('opens the dashboard in the browser named by BROWSER when there is a display', async () => {
    const home = tempHome();
    // A stand-in browser that loads the page it is given, as a real one would.
    const browser = join(home, 'browser');
    writeFileSync(browser, `#!/bin/sh\nexec "${process.execPath}" -e 'fetch(process.argv[1])' "$1"\n`);
    chmodSync(browser, 0o755);
    const served = ui(home, ['--port', '0', '--verbose'], { BROWSER: browser, DISPLAY: ':0', CI: undefined });
    await served.waitFor('stderr', 'GET /__sandbox/ui/ -> 200');
    expect(served.output.stderr).toContain('Opening the dashboard in your browser.');
    expect(served.output.stdout).toMatch(
      /^Dashboard: (http:\/\/127\.0\.0\.1:\d+)\/__sandbox\/ui\/\nSandbox listening on \1\n/,
    );
  });
});
