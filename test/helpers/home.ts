import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The home folder and the clean environment every run of the CLI in the tests gets, in this process or spawned.

/** A fresh home folder, so each test has its own sandbox state and no profile file is found by accident. */
export function tempHome(): string {
  return mkdtempSync(join(tmpdir(), 'einvoice-test-'));
}

/**
 * The environment of a run: a clean one (no EINVOICE_* of the developer's shell) below `home`, CI set so nothing
 * prompts, with `env` on top (undefined removes a variable). The suite's own zone and locale pass through, so a suite
 * run with `TZ=Africa/Cairo LANG=ar_EG.UTF-8` runs the CLI in them; a test whose outcome depends on the zone sets it.
 */
export function cliEnvironment(home: string, env: Record<string, string | undefined> = {}): Record<string, string> {
  const clean: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_CONFIG_HOME: join(home, '.config'),
    CI: 'true',
    ...suiteClock(),
  };
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete clean[key];
    else clean[key] = value;
  }
  return clean;
}

/** The zone and locale the suite runs in, as the machine's own for every run of the CLI. */
function suiteClock(): Record<string, string> {
  const passed = ['TZ', 'LANG', 'LC_ALL'].flatMap((name) => {
    const value = process.env[name];
    return value === undefined ? [] : [[name, value]];
  });
  return Object.fromEntries(passed) as Record<string, string>;
}
