import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { CommanderError } from 'commander';
import type { CommandContext, InterruptControl } from './context.js';
import { EinvoiceError, ExitCode, InterruptedError } from './errors.js';
import { helpTopic, helpTopics } from './help-topics.js';
import { buildProgram, ledgerCommandWords } from './program.js';
import { nearestName } from './schemas/nearest-name.js';

// The standalone executable's entry sizes the heap as bin/einvoice.cjs does (scripts/build-binaries.mjs).
export { sizeHeapFor } from './heap-size.js';

/** Runs the CLI with `argv` and returns its exit code; the only place that decides it. */
export async function main(argv: string[], context?: CommandContext): Promise<number> {
  const interrupts = context ? undefined : watchInterrupts();
  if (!context) endQuietlyOnClosedPipe();
  const ctx = context ?? processContext(interrupts as Interrupts);
  const topic = argv.length === 4 && argv[2] === 'help' ? helpTopic(argv[3] ?? '') : undefined;
  if (topic !== undefined) {
    interrupts?.dispose();
    ctx.stdout.write(topic);
    return ExitCode.Ok;
  }
  const program = buildProgram(ctx);
  const unknown = unknownHelpWord(argv, program);
  if (unknown !== undefined) {
    interrupts?.dispose();
    ctx.stderr.write(unknown);
    return ExitCode.Usage;
  }
  try {
    await program.parseAsync(helpAsOption(argv, program));
    return ExitCode.Ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has already printed its message (with a "Did you mean" suggestion where it has one).
      return error.exitCode === 0 ? ExitCode.Ok : ExitCode.Usage;
    }
    const { printError } = await import('./output/errors.js');
    const { verbose, color } = program.opts();
    printError(error, ctx, { verbose: Boolean(verbose), color: color !== false });
    const { errorAnnotation, inGithubActions } = await import('./output/github-actions.js');
    const { wordsFor } = await import('./output/action-inputs.js');
    if (inGithubActions(ctx.env)) ctx.stderr.write(`${errorAnnotation(error, wordsFor(ctx.env))}\n`);
    return error instanceof EinvoiceError ? error.exitCode : ExitCode.Internal;
  } finally {
    interrupts?.dispose();
  }
}

/**
 * `einvoice ... | head` closes the pipe early: that is the reader's choice, not an error, so the CLI ends quietly,
 * never with a stack trace. A closed stdout drops the rest of the data while the command finishes, so its exit code
 * still says what happened and its summary and errors still reach stderr; a closed stderr ends the process with the
 * code it has so far.
 */
function endQuietlyOnClosedPipe(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
    process.stdout.destroy();
  });
  process.stderr.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : ExitCode.Ok);
  });
}

interface Interrupts {
  signal: AbortSignal;
  control: InterruptControl;
  dispose(): void;
}

/**
 * SIGINT and SIGTERM: the first aborts the command's signal. A command that opted in to stopping gracefully (a
 * bulk run) or to reporting the interruption itself (a create or refund in flight, sandbox serve) is left to end on
 * its own; any other ends here at once, with exit 130 (143 for SIGTERM). A second signal always ends the process
 * at once.
 */
function watchInterrupts(): Interrupts {
  const controller = new AbortController();
  const control: InterruptControl = { graceful: false };
  let received = 0;
  const onSignal = (name: NodeJS.Signals) => {
    received += 1;
    if (received === 1) {
      controller.abort(new InterruptedError('Interrupted.', { signal: name }));
      if (control.graceful) {
        if (!control.asking) {
          const again = name === 'SIGTERM' ? 'a second signal stops it at once' : 'Ctrl-C again to stop at once';
          process.stderr.write(`\nStopping: finishing what is in flight (${again}).\n`);
        }
        return;
      }
      if (control.reportsItself) return;
    }
    process.stderr.write(received === 1 ? '\nInterrupted.\n' : '\nInterrupted again: stopping at once.\n');
    try {
      control.lastWords?.();
    } catch {
      // Stopping at once matters more than the last words.
    }
    process.exit(name === 'SIGTERM' ? ExitCode.Terminated : ExitCode.Interrupted);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    control,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

function processContext(interrupts: Interrupts): CommandContext {
  return {
    // Node builds process.stdin on first use, a stream most commands never read: only then.
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    signal: interrupts.signal,
    interrupt: interrupts.control,
  };
}

/**
 * `einvoice help create single` asks for the help of `create single`, as `einvoice create single --help` does:
 * commander's help command reads one word, and would answer with the help of `create`. A word that names no
 * command (`help create singel`, `create singel --help`) is not answered with the help of the command before it:
 * the help request is dropped, so commander reports the unknown command and suggests the nearest.
 */
function helpAsOption(argv: string[], program: CommandUnknownOpts): string[] {
  const [node = '', script = '', first, ...rest] = argv;
  const asked = first === 'help' ? rest : [first, ...rest].filter((word) => word !== undefined);
  const helpAt = asked.findIndex((word) => word === '--help' || word === '-h');
  if (first !== 'help' && helpAt === -1) return argv;
  const words = first === 'help' ? asked : asked.slice(0, helpAt);
  let command = program;
  for (const word of words) {
    if (word.startsWith('-')) break;
    const sub = command.commands.find((each) => each.name() === word || each.aliases().includes(word));
    if (!sub) {
      // Arguments of a command without subcommands (`refund 1000001 --help`) are its own; leave them be.
      if (command.commands.length === 0) break;
      return [node, script, ...words];
    }
    command = sub;
  }
  return first === 'help' && words.length > 1 ? [node, script, ...words, '--help'] : argv;
}

/**
 * `einvoice help <word>` where the word is neither a help topic nor a command: the refusal names the nearest of
 * both, or lists the topics, rather than commander's "unknown command", which knows no topics.
 */
function unknownHelpWord(argv: string[], program: CommandUnknownOpts): string | undefined {
  const word = argv.length === 4 && argv[2] === 'help' ? (argv[3] ?? '') : undefined;
  if (word === undefined || word.startsWith('-')) return undefined;
  const commands = program.commands.map((command) => command.name());
  if (commands.includes(word)) return undefined;
  const meant = ledgerCommandWords.get(word) ?? nearestName(word, [...Object.keys(helpTopics), ...commands]);
  const next = meant ? `Did you mean ${meant}?` : `Help topics: ${Object.keys(helpTopics).join(', ')}.`;
  return `✖ No command or help topic '${word}'.\n${next}\n`;
}
