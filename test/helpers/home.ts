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
 * prompts, TZ=UTC so a run's days are never the machine's zone's (a test of another zone, or of none, says so), with
 * `env` on top (undefined removes a variable).
 */
export function cliEnvironment(home: string, env: Record<string, string | undefined> = {}): Record<string, string> {
  const clean: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_CONFIG_HOME: join(home, '.config'),
    CI: 'true',
    TZ: 'UTC',
  };
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete clean[key];
    else clean[key] = value;
  }
  return clean;
}
