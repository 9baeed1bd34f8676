import type { CommandContext } from '../../context.js';
import type { Root } from '../root.js';
import { declareCreate, declareCreateGroup } from './flags.js';

/** Adds `create single` and `create recurring`; their implementation is imported only when one runs. */
export function addCreateCommands(root: Root, context: CommandContext): void {
  const create = declareCreateGroup(root);
  for (const kind of ['single', 'recurring'] as const) {
    declareCreate(create, kind).action(async (_options, command) => {
      const { createInvoices } = await import('./create.js');
      await createInvoices(kind, command.optsWithGlobals(), context);
    });
  }
}
