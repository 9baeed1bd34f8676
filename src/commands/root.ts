import { Command } from '@commander-js/extra-typings';
import { wholeNumberFlag } from '../input/flag-parsers.js';
import { version } from '../version.js';

// What every command accepts, declared once on the root command. Commander's typings (extra-typings) infer each
// command's options from its declaration, so no command retypes them.

/** The `einvoice` command with the options every command accepts. */
export function declareRoot() {
  return new Command('einvoice')
    .description('Work with the e-invoice service: statistics, refunds, single, recurring and bulk invoices.')
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand('help [command-or-topic]', 'show help for a command, or a help topic (listed below)')
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
    .option('--no-ledger', 'keep no record of what this command sends in the ledger (einvoice invoices)')
    .option('--no-input', 'never prompt; fail listing whatever is missing')
    .option('--no-color', 'disable colour (also NO_COLOR=1)');
}

/** The root command, under which each command is declared. */
export type Root = ReturnType<typeof declareRoot>;

/** The options of a declared command, its own and the root's, as commander hands them to its action. */
export type OptionsOf<C extends { optsWithGlobals(): object }> = ReturnType<C['optsWithGlobals']>;
