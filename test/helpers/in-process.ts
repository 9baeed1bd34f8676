import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { expect } from 'vitest';
import type { CommandContext } from '../../src/context.js';
import { main } from '../../src/index.js';
import { localProfile, writeProfile } from './profile.js';

// The CLI run in this process through main(), with its own streams and environment: the command tests that need
// no process of their own (no signal, no exit) run this way, which is many times faster than spawning.

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface InProcessOptions {
  /** Variables of the run (a clean environment otherwise, CI set so nothing prompts). */
  env?: Record<string, string>;
  /** The working directory (default: a fresh folder). */
  cwd?: string;
  /** Secrets that must appear in neither stdout nor stderr. */
  secrets?: string[];
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

/** Runs `einvoice ...args` in this process; fails the test if a secret is printed. */
export async function runInProcess(args: string[], options: InProcessOptions = {}): Promise<InProcessResult> {
  const cwd = options.cwd ?? mkdtempSync(join(tmpdir(), 'einvoice-inproc-'));
  const stdout = sink();
  const stderr = sink();
  const context: CommandContext = {
    stdin: Readable.from([]),
    stdout,
    stderr,
    env: { CI: 'true', XDG_STATE_HOME: join(cwd, '.state'), ...options.env },
    cwd,
  };
  const code = await main(['node', 'einvoice', ...args], context);
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
