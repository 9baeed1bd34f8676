import { Help } from '@commander-js/extra-typings';
import type { CommandContext } from './context.js';
import { addCreateCommands } from './commands/create/index.js';
import { declareConfig } from './commands/flags/config.js';
import { declareCompletion, declareSchema, declareTemplate } from './commands/flags/printers.js';
import { declareRefund } from './commands/flags/refund.js';
import { declareRoot, type Root } from './commands/flags/root.js';
import { declareSandbox } from './commands/flags/sandbox.js';
import { declareStats } from './commands/flags/stats.js';
import { exitCodeLines, helpTopics } from './help-topics.js';
import { nearestName } from './schemas/nearest-name.js';

// Puts the command tree together: each command's flags are declared in commands/flags/, and its implementation is
// imported only when it runs, so `--help` loads commander alone. Commander's typings infer each action's options
// from the declaration, so an implementation takes them as declared, without a cast.

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

  declareStats(program).action(async (_options, command) => {
    const { stats } = await import('./commands/stats.js');
    await stats(command.optsWithGlobals(), context);
  });

  declareRefund(program).action(async (invoiceNumber, _options, command) => {
    const { refund } = await import('./commands/refund.js');
    await refund({ ...command.optsWithGlobals(), invoiceNumber }, context);
  });

  addCreateCommands(program, context);

  const sandbox = declareSandbox(program);
  sandbox.serve.action(async (_options, command) => {
    const { serveSandbox } = await import('./commands/sandbox/serve.js');
    await serveSandbox(command.optsWithGlobals(), context);
  });
  sandbox.ui.action(async (_options, command) => {
    const { sandboxUi } = await import('./commands/sandbox/ui.js');
    await sandboxUi(command.optsWithGlobals(), context);
  });
  sandbox.reset.action(async (_options, command) => {
    const { resetSandbox } = await import('./commands/sandbox/admin.js');
    await resetSandbox(command.optsWithGlobals(), context);
  });
  for (const name of ['pay', 'cancel'] as const) {
    sandbox[name].action(async (invoiceNumber, _options, command) => {
      const { settleSandboxInvoice } = await import('./commands/sandbox/admin.js');
      await settleSandboxInvoice(name, { ...command.optsWithGlobals(), invoiceNumber }, context);
    });
  }
  sandbox.expire.action(async (_options, command) => {
    const { advanceSandboxClock } = await import('./commands/sandbox/admin.js');
    await advanceSandboxClock(command.optsWithGlobals(), context);
  });
  sandbox.outbox.action(async (_options, command) => {
    const { showSandboxOutbox } = await import('./commands/sandbox/admin.js');
    await showSandboxOutbox(command.optsWithGlobals(), context);
  });
  sandbox.export.action(async (_options, command) => {
    const { exportSandbox } = await import('./commands/sandbox/export.js');
    await exportSandbox(command.optsWithGlobals(), context);
  });

  const config = declareConfig(program);
  config.init.action(async (_options, command) => {
    const { initConfig } = await import('./commands/config/init.js');
    await initConfig(command.optsWithGlobals(), context);
  });
  config.show.action(async (_options, command) => {
    const { showConfig } = await import('./commands/config/show.js');
    await showConfig(command.optsWithGlobals(), context);
  });
  config.check.action(async (_options, command) => {
    const { checkConfig } = await import('./commands/config/check.js');
    await checkConfig(command.optsWithGlobals(), context);
  });

  declareSchema(program).action(async (which) => {
    const { printSchema } = await import('./commands/schema.js');
    printSchema(which, context);
  });

  declareTemplate(program).action(async (kind, options, command) => {
    const { printTemplate } = await import('./commands/template.js');
    const formatGiven = command.getOptionValueSource('format') === 'cli';
    printTemplate(kind, { ...command.optsWithGlobals(), formatGiven }, context);
  });

  declareCompletion(program).action(async (shell) => {
    const { printCompletion } = await import('./commands/completion.js');
    printCompletion(shell, program, context);
  });

  return program;
}
