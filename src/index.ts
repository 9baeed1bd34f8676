import { CommanderError } from 'commander';
import type { CommandContext } from './context.js';
import { EinvoiceError, ExitCode } from './errors.js';
import { buildProgram } from './program.js';

/** Runs the CLI with `argv` and returns its exit code; the only place that decides it. */
export async function main(argv: string[], context: CommandContext = processContext()): Promise<number> {
  const program = buildProgram(context);
  try {
    await program.parseAsync(argv);
    return ExitCode.Ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has already printed its message (with a "Did you mean" suggestion where it has one).
      return error.exitCode === 0 ? ExitCode.Ok : ExitCode.Usage;
    }
    const { printError } = await import('./output/errors.js');
    const { verbose, color } = program.opts<{ verbose?: boolean; color?: boolean }>();
    printError(error, context, { verbose: Boolean(verbose), color: color !== false });
    return error instanceof EinvoiceError ? error.exitCode : ExitCode.Internal;
  }
}

function processContext(): CommandContext {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}
