import { describe, expect, it } from 'vitest';
import { browserCommand, canOpenBrowser } from '../../src/commands/sandbox/browser.js';
import { runInProcess } from '../helpers/in-process.js';

// `einvoice sandbox ui` as declared, and how it opens a browser; test/e2e/sandbox-ui.test.ts serves the dashboard.

describe('einvoice sandbox ui', () => {
  it('--help names the port and how not to open a browser', async () => {
    const result = await runInProcess(['sandbox', 'ui', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: einvoice sandbox ui \[options\]/);
    expect(result.stdout).toContain('--port <port>');
    expect(result.stdout).toContain('--no-open');
    expect(result.stdout).toContain('never in CI');
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
