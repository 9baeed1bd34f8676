import { Help } from '@commander-js/extra-typings';
import type { CommandContext } from './context.js';
import { addCompletionCommand } from './commands/completion/index.js';
import { addConfigCommands } from './commands/config/index.js';
import { addCreateCommands } from './commands/create/index.js';
import { addInvoicesCommands } from './commands/invoices/index.js';
import { addRefundCommand } from './commands/refund/index.js';
import { declareRoot, type Root } from './commands/root.js';
import { addSandboxCommands } from './commands/sandbox/index.js';
import { addSchemaCommand } from './commands/schema/index.js';
import { addStatsCommand } from './commands/stats/index.js';
import { addTemplateCommand } from './commands/template/index.js';
import { exitCodeLines, helpTopics } from './help-topics.js';
import { nearestName } from './schemas/nearest-name.js';

// Puts the command tree together: each command lives in its folder of commands/, whose index.ts adds it with its
// flags and action and imports its implementation only when it runs, so `--help` loads commander alone.

/** Help of a subcommand leaves the global options to the root's, and says so in one line. */
const globalOptionsLine = 'Global options (--env, --json, ...): see einvoice --help.\n';

/**
 * Commander's own errors (an unknown command or option, a missing argument) worded as the CLI's others are:
 * "error: unknown option '--jsn'\n(Did you mean --json?)" becomes "✖ Unknown option '--jsn'.\nDid you mean --json?".
 * A value outside a flag's or an argument's choices ("singel") gets the same suggestion, which commander leaves out.
 */
export function inOurStyle(text: string): string {
  const [first = '', ...rest] = text.trimEnd().split('\n');
  // A flag's own parser says why its value is wrong: "argument 'abc' is invalid: must be a whole number".
  const message = first.replace(/^error: /, '').replace(/ is invalid\. (?=[a-z])/, ' is invalid: ');
  const sentence = `${message.charAt(0).toUpperCase()}${message.slice(1)}`;
  const lines = [`✖ ${/[.?!]$/.test(sentence) ? sentence : `${sentence}.`}`];
  for (const line of rest) lines.push(line.replace(/^\((.*)\)$/, '$1'));
  const choice = /(?:value|argument) '([^']*)' is invalid.* Allowed choices are (.+)\.$/.exec(message);
  const meant = choice && nearestName(choice[1] ?? '', (choice[2] ?? '').split(', '));
  if (meant) lines.push(`Did you mean ${meant}?`);
  return `${lines.join('\n')}\n`;
}

/**
 * Words a merchant types for what einvoice keeps of the invoices it sent, and the command that does it: the service
 * has no list, so neither has the root.
 */
export const ledgerCommandWords: ReadonlyMap<string, string> = new Map([
  ['list', 'einvoice invoices list'],
  ['get', 'einvoice invoices show'],
  ['show', 'einvoice invoices show'],
  ['export', 'einvoice invoices export'],
  ['reconcile', 'einvoice invoices reconcile'],
]);

/**
 * The refusal of an unknown command of the root, in commander's words, with the command meant: the ledger's for its
 * words, else the nearest visible command.
 */
function refuseUnknownCommand(program: Root, name: string): never {
  const commands = program
    .createHelp()
    .visibleCommands(program)
    .map((command) => command.name());
  const meant = ledgerCommandWords.get(name) ?? nearestName(name, commands);
  program.error(`error: unknown command '${name}'${meant ? `\n(Did you mean ${meant}?)` : ''}`, {
    code: 'commander.unknownCommand',
  });
}

/** Builds the `einvoice` command tree. */
export function buildProgram(context: CommandContext): Root {
  const program = declareRoot()
    .addHelpText('after', ['', 'Exit codes:', ...exitCodeLines(), '  (einvoice help exit-codes says more)'].join('\n'))
    .addHelpText('after', `\nHelp topics (einvoice help <topic>):\n  ${Object.keys(helpTopics).join(', ')}`)
    .addHelpText(
      'after',
      '\nExamples:\n  $ einvoice stats\n  $ einvoice create single --file invoice.json --env staging',
    )
    .showSuggestionAfterError(true)
    .configureHelp({
      formatHelp(command, helper) {
        const help = Help.prototype.formatHelp.call(this, command, helper);
        return command.parent ? `${help}${globalOptionsLine}` : help;
      },
    })
    .exitOverride()
    .configureOutput({
      writeOut: (text) => context.stdout.write(text),
      writeErr: (text) => context.stderr.write(text),
      outputError: (text, write) => write(inOurStyle(text)),
    });

  addStatsCommand(program, context);
  addRefundCommand(program, context);
  addCreateCommands(program, context);
  addInvoicesCommands(program, context);
  addSandboxCommands(program, context);
  addConfigCommands(program, context);
  addSchemaCommand(program, context);
  addTemplateCommand(program, context);
  addCompletionCommand(program, context);
  program.on('command:*', ([name = '']: string[]) => refuseUnknownCommand(program, name));

  return program;
}
