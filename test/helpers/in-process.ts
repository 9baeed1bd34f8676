import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { expect } from 'vitest';
import type { CommandContext } from '../../src/context.js';
import { main } from '../../src/index.js';
import type { CliResult } from './cli.js';

// The CLI run in this process through main(), as a merchant's shell would run it without a terminal: a clean
// environment below `home`, stdin from `input`, stdout and stderr collected. Faster than spawning, for tests whose
// point is not the process itself.

export interface InProcessOptions {
  /** Text or bytes on stdin, which then ends. */
  input?: string | Buffer;
  /** Variables added to the clean environment (HOME, XDG folders, CI). */
  env?: Record<string, string>;
  /** The working directory (default: `home`). */
  cwd?: string;
}

/** Runs `einvoice ...args` in-process with `home` as its home folder; fails the test if a stack trace is printed. */
export async function runInProcess(home: string, args: string[], options: InProcessOptions = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        append(chunk.toString());
        done();
      },
    });
  const context: CommandContext = {
    stdin: Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)]),
    stdout: sink((text) => (stdout += text)),
    stderr: sink((text) => (stderr += text)),
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
  expect(stderr).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
  return { code, signal: null, stdout, stderr };
}
