import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { tempHome } from './cli.js';
import { runMain } from './main-cli.js';
import { localProfile, writeProfile } from './profile.js';

// The CLI run in this process through main(), with its own streams and environment: the command tests that need
// no process of their own (no signal, no exit) run this way, which is many times faster than spawning.

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface InProcessOptions {
  /** The home folder (default: a fresh one); state and config live below it. */
  home?: string;
  /** Variables added to a clean environment (CI set, so nothing prompts). */
  env?: Record<string, string>;
  /** The working directory (default: the home folder). */
  cwd?: string;
  /** Secrets that must appear in neither stdout nor stderr. */
  secrets?: string[];
  /** Text or bytes on stdin, which then ends. */
  input?: string | Buffer;
}

/**
 * Runs `einvoice ...args` in this process (`runMain`), in `home` (a fresh one by default); fails the test if a secret
 * or a stack trace is printed.
 */
export async function runInProcess(args: string[], options: InProcessOptions = {}): Promise<InProcessResult> {
  const home = options.home ?? tempHome();
  const result = await runMain(args, { env: { HOME: home, ...options.env }, cwd: options.cwd, input: options.input });
  expect(result.stderr, 'a stack trace').not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
  for (const secret of options.secrets ?? []) {
    expect(result.stdout, `stdout of einvoice ${args.join(' ')} shows a secret`).not.toContain(secret);
    expect(result.stderr, `stderr of einvoice ${args.join(' ')} shows a secret`).not.toContain(secret);
  }
  return { code: result.code as number, stdout: result.stdout, stderr: result.stderr };
}

/** A fresh folder holding a profile file whose `local` environment points at `baseUrl`; returns the folder. */
export function folderWithProfile(baseUrl: string, token: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'einvoice-inproc-'));
  writeProfile(dir, localProfile(baseUrl, token));
  return dir;
}
