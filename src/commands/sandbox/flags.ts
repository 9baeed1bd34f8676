import { repeatable, wholeNumberFlag } from '../../input/flag-parsers.js';
import type { OptionsOf, Root } from '../root.js';

/** `einvoice sandbox` and its commands: their arguments, flags and help. */
export function declareSandbox(root: Root) {
  const sandbox = root
    .command('sandbox')
    .description('run and drive the local sandbox service (no account, no network)')
    .addHelpText('after', '\nExamples:\n  $ einvoice sandbox serve --port 4010\n  $ einvoice sandbox pay 1000001');

  const serve = sandbox
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
      'inject a fault: 500, 503, 429, drop, drop-after-commit or hang, e.g. 503=0.05',
      repeatable,
    )
    .option('--seed <n>', 'seed of the fault injection, for reproducible runs', wholeNumberFlag(0))
    .option('--ui', 'also serve the dashboard at /__sandbox/ui/ (this machine only)')
    .addHelpText(
      'after',
      `
Examples:
  $ einvoice sandbox serve --port 4010 --token local-dev
  $ einvoice sandbox serve --port 4010 --state sandbox.sqlite --ui
  $ einvoice sandbox serve --port 0 --json --fault 503=0.05 --fault drop-after-commit=0.02 --seed 7`,
    );

  const ui = sandbox
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
    );

  const reset = sandbox
    .command('reset')
    .description('start the sandbox over with the demo invoices')
    .option('--empty', 'start with no invoices at all')
    .addHelpText(
      'after',
      `
The journals of earlier bulk runs are kept: they still record their invoices as created. To send a file again,
delete its journal or pass --journal PATH.

Examples:
  $ einvoice sandbox reset
  $ einvoice sandbox reset --empty`,
    );

  const settle = (name: 'pay' | 'cancel', description: string) =>
    sandbox
      .command(name)
      .description(description)
      .argument('<invoiceNumber>', 'number of the invoice')
      .addHelpText(
        'after',
        `\nExamples:\n  $ einvoice sandbox ${name} 1000001\n  $ einvoice sandbox ${name} 1000001 --json`,
      );
  const pay = settle('pay', 'pay an unpaid invoice as its customer would (prints the order reference number)');
  const cancel = settle('cancel', 'cancel an unpaid invoice');

  const expire = sandbox
    .command('expire')
    .description("move the sandbox's clock forward so that invoices due by then expire")
    .option('--by <duration>', 'how far to move the clock: 30d, 2w, 1m (a month), 12h, 90min, 45s', '30d')
    .addHelpText('after', '\nExamples:\n  $ einvoice sandbox expire\n  $ einvoice sandbox expire --by 400d --json');

  const outbox = sandbox
    .command('outbox')
    .description('list the SMS and e-mails the sandbox has sent')
    .addHelpText(
      'after',
      "\nExamples:\n  $ einvoice sandbox outbox\n  $ einvoice sandbox outbox --json | jq '.messages[-1]'",
    );

  const exportState = sandbox
    .command('export')
    .description("print the built-in sandbox's whole state as JSON: invoices, outbox, clock and counters")
    .option('--state <file>', 'the state file of a sandbox served with --state FILE')
    .addHelpText(
      'after',
      `
The JSON is for reading (jq, diff, a bug report), not a state file: \`sandbox serve --state FILE\` refuses it.

Examples:
  $ einvoice sandbox export > sandbox-state.json
  $ einvoice sandbox export --state shared.sqlite | jq '.invoices | length'`,
    );

  return { serve, ui, reset, pay, cancel, expire, outbox, export: exportState };
}

type SandboxCommands = ReturnType<typeof declareSandbox>;
export type ServeOptions = OptionsOf<SandboxCommands['serve']>;
export type UiOptions = OptionsOf<SandboxCommands['ui']>;
export type ResetOptions = OptionsOf<SandboxCommands['reset']>;
export type ExpireOptions = OptionsOf<SandboxCommands['expire']>;
export type ExportOptions = OptionsOf<SandboxCommands['export']>;
/** The options of the sandbox commands without flags of their own (pay, cancel, outbox). */
export type SandboxOptions = OptionsOf<SandboxCommands['outbox']>;
