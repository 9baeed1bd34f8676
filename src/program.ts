import { Argument, Command, Option } from 'commander';
import type { CommandContext, GlobalOptions } from './context.js';
import { addCreateCommands } from './commands/create/index.js';
import { repeatable, wholeNumberFlag } from './input/flag-parsers.js';
import { version } from './version.js';

// Declares every command and flag; implementations are imported only when their command runs, so `--help`
// loads commander alone.

const exitCodesHelp = `
Exit codes:
  0    success
  1    unexpected internal error
  2    invalid input or usage (nothing was sent)
  3    authentication failed (401): set the environment's token
  4    rejected by the service (other 4xx)
  5    service unavailable (5xx, time-out, connection)
  6    partial failure of a batch
  7    a --fail-if condition held
  8    outcome unknown: the request may have reached the service (the invoice or refund may exist)
  130  interrupted (Ctrl-C)
  143  terminated (SIGTERM)`;

/**
 * Commander's own errors (an unknown command or option, a missing argument) worded as the CLI's others are:
 * "error: unknown option '--jsn'\n(Did you mean --json?)" becomes "✖ Unknown option '--jsn'.\nDid you mean --json?".
 */
export function inOurStyle(text: string): string {
  const [first = '', ...rest] = text.trimEnd().split('\n');
  // A flag's own parser says why its value is wrong: "argument 'abc' is invalid: must be a whole number".
  const message = first.replace(/^error: /, '').replace(/ is invalid\. (?=[a-z])/, ' is invalid: ');
  const sentence = `${message.charAt(0).toUpperCase()}${message.slice(1)}`;
  const lines = [`✖ ${/[.?!]$/.test(sentence) ? sentence : `${sentence}.`}`];
  for (const line of rest) lines.push(line.replace(/^\((.*)\)$/, '$1'));
  return `${lines.join('\n')}\n`;
}

/** Builds the `einvoice` command tree. */
export function buildProgram(context: CommandContext): Command {
  const program = new Command('einvoice')
    .description('Work with the e-invoice service: statistics, refunds, single, recurring and bulk invoices.')
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .option('-e, --env <name>', 'environment profile to use (staging, production, sandbox, ...)')
    .option('-c, --config <file>', 'profile file to read instead of searching for .einvoicerc')
    .option('--json', 'print machine-readable JSON on stdout')
    .option('--verbose', 'log each request and response on stderr (tokens redacted)')
    .option(
      '--timeout <seconds>',
      'time-out of each attempt in seconds (default 30; stats makes up to 3 attempts, and a tokenCommand gets as long)',
      wholeNumberFlag(1),
    )
    .option(
      '--max-retry-after <seconds>',
      'wait at most this long when the service asks to retry later (default 60); a longer wait fails instead',
      wholeNumberFlag(0),
    )
    .option('--no-input', 'never prompt; fail listing whatever is missing')
    .option('--no-color', 'disable colour (also NO_COLOR=1)')
    .addHelpText('after', exitCodesHelp)
    .addHelpText(
      'after',
      '\nExamples:\n  $ einvoice stats\n  $ einvoice create single --file invoice.json --env staging',
    )
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true })
    .exitOverride()
    .configureOutput({
      writeOut: (text) => context.stdout.write(text),
      writeErr: (text) => context.stderr.write(text),
      outputError: (text, write) => write(inOurStyle(text)),
    });

  // Commander merges the root's options into each command's; the command file's own type names its flags.
  const globals = <T extends object = object>(command: Command) => command.optsWithGlobals<GlobalOptions & T>();

  program
    .command('stats')
    .description('show counts and amounts of your invoices by status')
    .option(
      '--fail-if <condition>',
      "exit 7 when a condition holds, e.g. 'expired.count>0' or 'unpaid.amount>=5000' (repeatable)",
      repeatable,
    )
    .addHelpText(
      'after',
      `
Examples:
  $ einvoice stats --env staging
  $ einvoice stats --json | jq .paidInvoices
  $ einvoice stats --env production --fail-if 'expired.count>0'`,
    )
    .action(async (_options, command: Command) => {
      const { stats } = await import('./commands/stats.js');
      await stats(globals(command), context);
    });

  program
    .command('refund')
    .description('refund a paid invoice')
    .argument('<invoiceNumber>', 'number of the paid invoice')
    .option('--amount <amount>', 'amount to refund')
    .option('--reason <text>', 'reason for the refund')
    .option('--order-ref <reference>', 'order reference number of the payment (orderReferenceNumber)')
    .option('-f, --file <file>', 'read the refund as JSON from a file, or - for stdin (flags win over it)')
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--dry-run', 'print the request that would be sent, send nothing')
    .addHelpText(
      'after',
      `
Examples:
  $ einvoice refund 1000007 --amount 150 --reason "Damaged item" --order-ref 3712345
  $ einvoice refund 1000007 --file refund.json --yes --env production
  $ einvoice refund 1000007 --amount 150 --reason "Late" --order-ref 3712345 --dry-run`,
    )
    .action(async (invoiceNumber: string, _options, command: Command) => {
      const { refund } = await import('./commands/refund.js');
      await refund({ ...globals(command), invoiceNumber }, context);
    });

  addCreateCommands(program, context);

  const sandbox = program
    .command('sandbox')
    .description('run and drive the local sandbox service (no account, no network)')
    .addHelpText('after', '\nExamples:\n  $ einvoice sandbox serve --port 4010\n  $ einvoice sandbox pay 1000001');

  sandbox
    .command('serve')
    .description('serve the sandbox over HTTP until stopped')
    .option('--port <port>', 'port to listen on (0 picks a free one)', wholeNumberFlag(0, 65_535), 4010)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--state <file>', 'keep invoices in this file (shared safely between processes)')
    .option('--token <token>', 'the merchant token the sandbox accepts (default: a new random one)')
    .option('--demo', 'start a new state with the demo invoices')
    .option('--latency <ms>', 'delay every service operation by this many milliseconds', wholeNumberFlag(0))
    .option(
      '--fault <kind=rate>',
      'inject a fault: 500, 503, 429, drop or drop-after-commit, e.g. 503=0.05',
      repeatable,
    )
    .option('--seed <n>', 'seed of the fault injection, for reproducible runs', wholeNumberFlag(0))
    .option('--ui', 'also serve the dashboard at /__sandbox/ui/ (this machine only)')
    .addHelpText(
      'after',
      `
Examples:
  $ einvoice sandbox serve --port 4010 --token local-dev
  $ einvoice sandbox serve --port 4010 --state sandbox.json --ui
  $ einvoice sandbox serve --port 0 --json --fault 503=0.05 --fault drop-after-commit=0.02 --seed 7`,
    )
    .action(async (_options, command: Command) => {
      const { serveSandbox } = await import('./commands/sandbox/serve.js');
      await serveSandbox(globals(command), context);
    });

  sandbox
    .command('ui')
    .description("open the built-in sandbox's dashboard: invoices, statistics and the customers' messages, live")
    .option('--port <port>', 'port to listen on (0 picks a free one)', wholeNumberFlag(0, 65_535), 0)
    .option('--no-open', 'print the address only; do not open a browser')
    .addHelpText(
      'after',
      `
The dashboard follows the built-in sandbox's state file, so invoices created by other einvoice commands appear
at once. A browser opens when there is one (never in CI, nor without a display); the address is printed either way.

Examples:
  $ einvoice sandbox ui
  $ einvoice sandbox ui --port 4011 --no-open`,
    )
    .action(async (_options, command: Command) => {
      const { sandboxUi } = await import('./commands/sandbox/ui.js');
      await sandboxUi(globals(command), context);
    });

  sandbox
    .command('reset')
    .description('start the sandbox over with the demo invoices')
    .option('--empty', 'start with no invoices at all')
    .addHelpText('after', '\nExamples:\n  $ einvoice sandbox reset\n  $ einvoice sandbox reset --empty')
    .action(async (_options, command: Command) => {
      const { resetSandbox } = await import('./commands/sandbox/admin.js');
      await resetSandbox(globals(command), context);
    });

  for (const [name, description] of [
    ['pay', 'pay an unpaid invoice as its customer would (prints the order reference number)'],
    ['cancel', 'cancel an unpaid invoice'],
  ] as const) {
    sandbox
      .command(name)
      .description(description)
      .argument('<invoiceNumber>', 'number of the invoice')
      .addHelpText(
        'after',
        `\nExamples:\n  $ einvoice sandbox ${name} 1000001\n  $ einvoice sandbox ${name} 1000001 --json`,
      )
      .action(async (invoiceNumber: string, _options, command: Command) => {
        const { settleSandboxInvoice } = await import('./commands/sandbox/admin.js');
        await settleSandboxInvoice(name, { ...globals(command), invoiceNumber }, context);
      });
  }

  sandbox
    .command('expire')
    .description("move the sandbox's clock forward so that invoices due by then expire")
    .option('--by <duration>', 'how far to move the clock: 30d, 12h, 2w, ...', '30d')
    .addHelpText('after', '\nExamples:\n  $ einvoice sandbox expire\n  $ einvoice sandbox expire --by 400d --json')
    .action(async (_options, command: Command) => {
      const { advanceSandboxClock } = await import('./commands/sandbox/admin.js');
      await advanceSandboxClock(globals<{ by: string }>(command), context);
    });

  sandbox
    .command('outbox')
    .description('list the SMS and e-mails the sandbox has sent')
    .addHelpText(
      'after',
      "\nExamples:\n  $ einvoice sandbox outbox\n  $ einvoice sandbox outbox --json | jq '.messages[-1]'",
    )
    .action(async (_options, command: Command) => {
      const { showSandboxOutbox } = await import('./commands/sandbox/admin.js');
      await showSandboxOutbox(globals(command), context);
    });

  const config = program
    .command('config')
    .description('create or inspect the profile file')
    .addHelpText('after', '\nExamples:\n  $ einvoice config init\n  $ einvoice config show --env staging');
  config
    .command('init')
    .description('ask for environments and token sources, then write .einvoicerc (mode 0600)')
    .option('--force', 'replace an existing .einvoicerc')
    .addHelpText(
      'after',
      `
Examples:
  $ einvoice config init
  $ einvoice config init --force`,
    )
    .action(async (_options, command: Command) => {
      const { initConfig } = await import('./commands/config/init.js');
      await initConfig(globals<{ force?: boolean }>(command), context);
    });
  config
    .command('show')
    .description('show the selected environment, its base URL and where its token comes from (redacted)')
    .addHelpText('after', '\nExamples:\n  $ einvoice config show\n  $ einvoice config show --env production --json')
    .action(async (_options, command: Command) => {
      const { showConfig } = await import('./commands/config/show.js');
      await showConfig(globals(command), context);
    });

  program
    .command('schema')
    .description('print the JSON Schema of a request or of the profile file, for editor validation')
    .argument('<which>', 'single, recurring, refund or config')
    .addHelpText(
      'after',
      `
Examples:
  $ einvoice schema single > single-invoice.schema.json
  $ einvoice schema config > einvoice-config.schema.json`,
    )
    .action(async (which: string) => {
      const { printSchema } = await import('./commands/schema.js');
      printSchema(which, context);
    });

  program
    .command('template')
    .description('print a file of invoices to start from: a CSV header and an example row, or NDJSON or JSON')
    .addArgument(new Argument('<kind>', 'single or recurring').choices(['single', 'recurring']))
    .addOption(new Option('--format <format>', 'csv, ndjson or json').choices(['csv', 'ndjson', 'json']).default('csv'))
    .addHelpText(
      'after',
      `
Examples:
  $ einvoice template single --format csv > invoices.csv
  $ einvoice template recurring --format ndjson > plans.ndjson
  $ einvoice template single --format json > invoice.json`,
    )
    .action(async (kind: string, _options, command: Command) => {
      const { printTemplate } = await import('./commands/template.js');
      printTemplate(kind, globals<{ format?: string }>(command).format, context);
    });

  program
    .command('completion')
    .description('print a shell completion script for bash, zsh or fish')
    .argument('<shell>', 'bash, zsh or fish')
    .addHelpText(
      'after',
      `
Examples:
  $ einvoice completion bash > ~/.local/share/bash-completion/completions/einvoice
  $ einvoice completion zsh > ~/.zfunc/_einvoice    (~/.zshrc: fpath=(~/.zfunc $fpath) before compinit)
  $ einvoice completion fish > ~/.config/fish/completions/einvoice.fish`,
    )
    .action(async (shell: string) => {
      const { printCompletion } = await import('./commands/completion.js');
      printCompletion(shell, program, context);
    });

  return program;
}
