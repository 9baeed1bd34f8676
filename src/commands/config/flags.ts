import type { OptionsOf, Root } from '../root.js';

/** `einvoice config init`, `config show` and `config check`: their flags and help. */
export function declareConfig(root: Root) {
  const config = root
    .command('config')
    .description('create or inspect the profile file')
    .addHelpText(
      'after',
      '\nExamples:\n  $ einvoice config init\n  $ einvoice config show --env staging\n  $ einvoice config check --env staging',
    );
  const init = config
    .command('init')
    .description('ask for environments and token sources, then write .einvoicerc (mode 0600)')
    .option('--force', 'replace an existing .einvoicerc')
    .addHelpText(
      'after',
      `
Examples:
  $ einvoice config init
  $ einvoice config init --force`,
    );
  const show = config
    .command('show')
    .description('show the selected environment, its base URL and where its token comes from (redacted)')
    .addHelpText('after', '\nExamples:\n  $ einvoice config show\n  $ einvoice config show --env production --json');
  const check = config
    .command('check')
    .description(
      'check the selected environment without changing anything: its token, the service over TLS, the clock, the statistics path (exit 0 all pass, 3 token, 5 service)',
    )
    .addHelpText(
      'after',
      `
Examples:
  $ einvoice config check --env staging
  $ einvoice config check --env production --json`,
    );
  return { init, show, check };
}

export type ConfigInitOptions = OptionsOf<ReturnType<typeof declareConfig>['init']>;
export type ConfigShowOptions = OptionsOf<ReturnType<typeof declareConfig>['show']>;
export type ConfigCheckOptions = OptionsOf<ReturnType<typeof declareConfig>['check']>;
