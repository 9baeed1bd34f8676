import { Argument, Option } from '@commander-js/extra-typings';
import type { Root } from './root.js';

// The commands that print a file to keep: a JSON Schema, a file of invoices to start from, a completion script.

/** `einvoice schema <which>`. */
export function declareSchema(root: Root) {
  return root
    .command('schema')
    .description('print the JSON Schema of a request or of the profile file, for editor validation')
    .argument('<which>', 'single, recurring, refund or config')
    .addHelpText(
      'after',
      `
Examples:
  $ einvoice schema single > single-invoice.schema.json
  $ einvoice schema config > einvoice-config.schema.json`,
    );
}

/** `einvoice template <kind>`. */
export function declareTemplate(root: Root) {
  return root
    .command('template')
    .description('print a file of invoices to start from: a CSV header and an example row, or NDJSON or JSON')
    .addArgument(new Argument('<kind>', 'single or recurring').choices(['single', 'recurring'] as const))
    .addOption(
      new Option('--format <format>', 'csv, ndjson or json').choices(['csv', 'ndjson', 'json'] as const).default('csv'),
    )
    .addHelpText(
      'after',
      `
Examples:
  $ einvoice template single --format csv > invoices.csv
  $ einvoice template recurring --format ndjson > plans.ndjson
  $ einvoice template single --format json > invoice.json`,
    );
}

/** `einvoice completion <shell>`. */
export function declareCompletion(root: Root) {
  return root
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
    );
}
