import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { get, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { browserCommand, canOpenBrowser } from '../../src/commands/sandbox/browser.js';
import { binPath, tempHome } from '../helpers/cli.js';
import { runMain } from '../helpers/main-cli.js';

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Spawns `einvoice sandbox ui ...args` in `home`; `until` resolves once stdout or stderr holds a text. */
function ui(home: string, args: string[], env: Record<string, string> = { CI: 'true' }) {
  const child = spawn(process.execPath, [binPath, 'sandbox', 'ui', ...args], {
    cwd: home,
    env: { PATH: process.env.PATH ?? '', HOME: home, XDG_STATE_HOME: join(home, '.local', 'state'), ...env },
    stdio: 'pipe',
  });
  children.push(child);
  const output = { stdout: '', stderr: '' };
  const waiters: Array<() => void> = [];
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream].setEncoding('utf8').on('data', (chunk: string) => {
      output[stream] += chunk;
      waiters.splice(0).forEach((wake) => wake());
    });
  }
  const until = (stream: 'stdout' | 'stderr', text: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => (output[stream].includes(text) ? resolve() : waiters.push(check));
      child.once('close', (code) => reject(new Error(`sandbox ui exited with ${code}: ${output.stderr}`)));
      check();
    });
  return { child, output, until };
}

describe('einvoice sandbox ui', () => {
  it('--help names the port and how not to open a browser', async () => {
    const result = await runMain(['sandbox', 'ui', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: einvoice sandbox ui \[options\]/);
    expect(result.stdout).toContain('--port <port>');
    expect(result.stdout).toContain('--no-open');
    expect(result.stdout).toContain('never in CI');
  });

  it("serves the built-in sandbox's dashboard and tells it of invoices other commands create", async () => {
    const home = tempHome();
    const served = ui(home, ['--port', '0', '--json']);
    await served.until('stdout', '\n');
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
    const created = await runMain(
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
    const [code] = (await once(served.child, 'close')) as [number | null];
    expect(code).toBe(0);
    // In CI no browser is started, and nothing but the address is printed.
    expect(served.output.stderr).toBe('');
  });

  it('opens the dashboard in the browser named by BROWSER when there is a display', async () => {
    const home = tempHome();
    // A stand-in browser that loads the page it is given, as a real one would.
    const browser = join(home, 'browser');
    writeFileSync(browser, `#!/bin/sh\nexec "${process.execPath}" -e 'fetch(process.argv[1])' "$1"\n`);
    chmodSync(browser, 0o755);
    const served = ui(home, ['--port', '0', '--verbose'], { BROWSER: browser, DISPLAY: ':0' });
    await served.until('stderr', 'GET /__sandbox/ui/ -> 200');
    expect(served.output.stderr).toContain('Opening the dashboard in your browser.');
    expect(served.output.stdout).toMatch(
      /^Dashboard: (http:\/\/127\.0\.0\.1:\d+)\/__sandbox\/ui\/\nSandbox listening on \1\n/,
    );
  });
});

describe('whether a browser can be opened', () => {
  it.each([
    [{ CI: 'true', DISPLAY: ':0' }, 'linux', false],
    [{ CI: 'true', BROWSER: 'firefox' }, 'darwin', false],
    [{}, 'linux', false],
    [{ DISPLAY: ':0' }, 'linux', true],
    [{ WAYLAND_DISPLAY: 'wayland-0' }, 'linux', true],
    [{ CI: 'false', DISPLAY: ':0' }, 'linux', true],
    [{}, 'darwin', true],
    [{}, 'win32', true],
    [{ BROWSER: 'lynx' }, 'linux', true],
  ] as const)('%j on %s: %s', (env, platform, expected) => {
    expect(canOpenBrowser(env, platform)).toBe(expected);
  });

  it('uses $BROWSER, else the system opener', () => {
    const url = 'http://127.0.0.1:4010/__sandbox/ui/';
    expect(browserCommand(url, { BROWSER: 'firefox' }, 'linux')).toEqual(['firefox', [url]]);
    expect(browserCommand(url, {}, 'linux')).toEqual(['xdg-open', [url]]);
    expect(browserCommand(url, {}, 'darwin')).toEqual(['open', [url]]);
    expect(browserCommand(url, {}, 'win32')).toEqual(['rundll32', ['url.dll,FileProtocolHandler', url]]);
  });
});
