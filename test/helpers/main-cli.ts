import { Readable, Writable } from 'node:stream';
import type { CommandContext } from '../../src/context.js';
import { main } from '../../src/index.js';
import { cliEnvironment, type CliOptions, type CliResult } from './cli.js';

// The CLI run in this process through main(argv, context), as bin/einvoice.cjs runs it but without a process:
// the same clean environment, home folder and stdin as `runCli`, and stdout and stderr collected as the bytes
// written. Spawned tests are kept for what only a process shows (signals, pipes, terminals, its exit).

/** A stream that keeps every byte written to it, like a pipe read to its end. */
class Collected extends Writable {
  private readonly chunks: Buffer[] = [];
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.chunks.push(chunk);
    done();
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/** Runs `einvoice ...args` in this process and collects stdout, stderr and the exit code main() returns. */
export async function runMain(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const { home, env } = cliEnvironment(options);
  const stdout = new Collected();
  const stderr = new Collected();
  const context: CommandContext = {
    stdin: Readable.from(options.input ? [Buffer.from(options.input)] : []),
    stdout,
    stderr,
    env,
    cwd: options.cwd ?? home,
  };
  const code = await main(['node', 'einvoice', ...args], context);
  return { code, signal: null, stdout: stdout.text(), stderr: stderr.text() };
}
