import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import type { CommandContext } from './context.js';
import type { HelpCache } from './help-cache.js';
import { helpTopic, helpTopics } from './help-topics.js';
import { buildProgram } from './program.js';
import { version } from './version.js';

/**
 * Renders with commander the help of every command as it prints when stdout is not a terminal, with the help topics;
 * run by the build.
 */
export function renderHelpCache(): HelpCache {
  let written = '';
  const sink = { write: (text: string) => ((written += text), true) } as unknown as CommandContext['stdout'];
  const program = buildProgram({ stdin: process.stdin, stdout: sink, stderr: sink, env: {}, cwd: process.cwd() });
  const helps: Record<string, string> = {};
  const visit = (command: Command, path: string[]) => {
    // Whatever the build's own output is: 80 columns, no colour, as commander prints into a pipe.
    command.configureOutput({ getOutHelpWidth: () => 80, getOutHasColors: () => false });
    written = '';
    command.outputHelp();
    helps[path.join(' ')] = written;
    for (const subcommand of command.commands) visit(subcommand, [...path, subcommand.name()]);
  };
  visit(program, []);
  const topics = Object.fromEntries(Object.keys(helpTopics).map((name) => [name, helpTopic(name) ?? '']));
  return { version, helps, topics };
}
