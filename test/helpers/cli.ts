import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The CLI as a merchant runs it. */
export const binPath = fileURLToPath(new URL('../../bin/einvoice.cjs', import.meta.url));

/**
 * A standalone executable to run instead of bin/ (`npm run test:binaries` sets it), so the end-to-end tests check
 * what the release ships too.
 */
const executable = process.env.EINVOICE_TEST_EXECUTABLE && resolve(process.env.EINVOICE_TEST_EXECUTABLE);

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Variables added to a clean environment (no EINVOICE_* from the developer's shell leaks in). */
  env?: Record<string, string | undefined>;
  /** Text or bytes written to the CLI's stdin, which is then closed. */
  input?: string | Buffer;
  cwd?: string;
}

/** A fresh home folder, so each test has its own sandbox state and no profile file is found by accident. */
export function tempHome(): string {
  return mkdtempSync(join(tmpdir(), 'einvoice-test-'));
}

/**
 * The environment a run of the CLI gets: a clean one (no EINVOICE_* of the developer's shell) below its home folder
 * (a fresh one unless `options.env` names it), with `options.env` on top (undefined removes a variable).
 */
export function cliEnvironment(options: CliOptions): { home: string; env: Record<string, string> } {
  const home = options.env?.HOME ?? tempHome();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_CONFIG_HOME: join(home, '.config'),
    CI: 'true',
  };
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return { home, env };
}

/** Spawns `node bin/einvoice.cjs ...args` and collects stdout, stderr and the exit code. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const { home, env } = cliEnvironment(options);
  return new Promise((resolve, reject) => {
    const [command, commandArgs] = executable ? [executable, args] : [process.execPath, [binPath, ...args]];
    const child = spawn(command, commandArgs, { cwd: options.cwd ?? home, env, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
