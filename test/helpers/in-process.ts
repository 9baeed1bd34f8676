import { Readable, Writable } from 'node:stream';
import { expect } from 'vitest';
import type { CommandContext } from '../../src/context.js';
import { main } from '../../src/index.js';
import { cliEnvironment, tempHome } from './home.js';
import { expectNoSecrets } from './secrets.js';

// The one way the tests run the CLI in this process: main(argv, context), as bin/einvoice.cjs runs it but without a
// process, which is many times faster than spawning. Only what needs a process of its own (signals, pipes,
// terminals, its exit, start-up) spawns it, with `runSpawned`.

export interface InProcessResult {
  code: number;
  stdout: string;
  /** stdout as written, for what is not text (a workbook). */
  stdoutBytes: Buffer;
  stderr: string;
}

export interface InProcessOptions {
  /** The home folder (default: `env.HOME`, else a fresh one); state and config live below it. */
  home?: string;
  /** Variables added to a clean environment (CI set, so nothing prompts); undefined removes one. */
  env?: Record<string, string | undefined>;
  /** The working directory (default: the home folder). */
  cwd?: string;
  /** Further secrets of this run that must appear in neither stdout nor stderr. */
  secrets?: string[];
  /** Text or bytes on stdin, which then ends. */
  input?: string | Buffer;
  /** Stdout says it is a terminal. */
  stdoutIsTTY?: boolean;
}

/** A stream that keeps every byte written to it, like a pipe read to its end. */
class Collected extends Writable {
  private readonly chunks: Buffer[] = [];
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.chunks.push(chunk);
    done();
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
  text(): string {
    return this.bytes().toString('utf8');
  }
}

/**
 * Runs `einvoice ...args` in this process with a clean environment in its own home folder, and collects stdout,
 * stderr and the exit code main() returns; fails the test if a token (`expectNoSecrets`) or a stack trace is printed.
 */
export async function runInProcess(args: string[], options: InProcessOptions = {}): Promise<InProcessResult> {
  const home = options.home ?? options.env?.HOME ?? tempHome();
  const env = cliEnvironment(home, options.env);
  const stdout = Object.assign(new Collected(), options.stdoutIsTTY ? { isTTY: true } : {});
  const stderr = new Collected();
  const context: CommandContext = {
    stdin: Readable.from(options.input ? [Buffer.from(options.input)] : []),
    stdout,
    stderr,
    env,
    cwd: options.cwd ?? home,
  };
  const code = await main(['node', 'einvoice', ...args], context);
  const result = { code, stdout: stdout.text(), stderr: stderr.text() } as InProcessResult;
  // Not enumerable: tests compare a whole result with toEqual, and the bytes are for the few that read a workbook.
  Object.defineProperty(result, 'stdoutBytes', { value: stdout.bytes(), enumerable: false });
  expect(result.stderr, 'a stack trace').not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
  expectNoSecrets(args, result, options.env, options.secrets);
  return result;
}
