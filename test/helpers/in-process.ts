import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { expect } from 'vitest';
import type { CommandContext } from '../../src/context.js';
import { main } from '../../src/index.js';
import { tempHome } from './cli.js';
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

/** A writable that keeps what is written, as text. */
function sink(): Writable & { text: string } {
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      stream.text += chunk.toString();
      done();
    },
  }) as Writable & { text: string };
  stream.text = '';
  return stream;
}

/**
 * Runs `einvoice ...args` in this process, the same code path as bin/; fails the test if a secret or a stack trace
 * is printed.
 */
export async function runInProcess(args: string[], options: InProcessOptions = {}): Promise<InProcessResult> {
  const home = options.home ?? tempHome();
  const stdout = sink();
  const stderr = sink();
  const stdin = new PassThrough();
  stdin.end(options.input);
  const context: CommandContext = {
    stdin,
    stdout,
    stderr,
    env: {
      HOME: home,
      XDG_STATE_HOME: join(home, '.local', 'state'),
      XDG_CONFIG_HOME: join(home, '.config'),
      CI: 'true',
      ...options.env,
    },
    cwd: options.cwd ?? home,
  };
  const code = await main(['node', 'einvoice', ...args], context);
  expect(stderr.text, 'a stack trace').not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
  for (const secret of options.secrets ?? []) {
    expect(stdout.text, `stdout of einvoice ${args.join(' ')} shows a secret`).not.toContain(secret);
    expect(stderr.text, `stderr of einvoice ${args.join(' ')} shows a secret`).not.toContain(secret);
  }
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** A fresh folder holding a profile file whose `local` environment points at `baseUrl`; returns the folder. */
export function folderWithProfile(baseUrl: string, token: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'einvoice-inproc-'));
  writeProfile(dir, localProfile(baseUrl, token));
  return dir;
}
