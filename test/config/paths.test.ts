import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheFolder, draftFile, sandboxStateFile } from '../../src/config/paths.js';

describe("the merchant's folders", () => {
  it('follow XDG_STATE_HOME and XDG_CACHE_HOME when they are absolute paths', () => {
    const env = { XDG_STATE_HOME: '/srv/state', XDG_CACHE_HOME: '/srv/cache' };
    expect(sandboxStateFile(env)).toBe('/srv/state/einvoice/sandbox.sqlite');
    expect(cacheFolder(env)).toBe('/srv/cache/einvoice');
    expect(draftFile('single', env, new Date('2026-03-10T08:30:00.000Z'))).toBe(
      '/srv/state/einvoice/drafts/single-2026-03-10T08-30-00-000Z.json',
    );
  });

  it('ignore an empty or relative value, which would put them wherever the command runs', () => {
    for (const value of ['', 'cache', './state']) {
      const env = { XDG_STATE_HOME: value, XDG_CACHE_HOME: value };
      expect(sandboxStateFile(env)).toBe(join(homedir(), '.local', 'state', 'einvoice', 'sandbox.sqlite'));
      expect(cacheFolder(env)).toBe(join(homedir(), '.cache', 'einvoice'));
    }
  });

  it('keep drafts in the state folder when EINVOICE_SANDBOX_STATE moves the sandbox elsewhere', () => {
    const env = { XDG_STATE_HOME: '/srv/state', EINVOICE_SANDBOX_STATE: '/tmp/sandbox.sqlite' };
    expect(sandboxStateFile(env)).toBe('/tmp/sandbox.sqlite');
    expect(draftFile('recurring', env, new Date(0))).toMatch(/^\/srv\/state\/einvoice\/drafts\/recurring-/);
  });
});
