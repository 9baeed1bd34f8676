import type { CommandContext } from '../context.js';
import type { Terminal } from './terminal.js';

/** Runs `task` under a spinner on stderr; the spinner shows only when stderr is an interactive terminal. */
export async function withSpinner<T>(
  terminal: Terminal,
  context: CommandContext,
  text: string,
  task: () => Promise<T>,
): Promise<T> {
  if (!terminal.animate) return task();
  const { default: ora } = await import('ora');
  const spinner = ora({ text, stream: context.stderr, discardStdin: false, isEnabled: true, color: 'cyan' }).start();
  try {
    return await task();
  } finally {
    spinner.stop();
  }
}
