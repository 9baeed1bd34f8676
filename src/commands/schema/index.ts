import type { CommandContext } from '../../context.js';
import type { Root } from '../root.js';

/** `einvoice schema <which>`. */
function declareSchema(root: Root) {
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

/** Adds `einvoice schema`; its implementation is imported only when it runs. */
export function addSchemaCommand(root: Root, context: CommandContext): void {
  declareSchema(root).action(async (which) => {
    const { printSchema } = await import('./run.js');
    printSchema(which, context);
  });
}
