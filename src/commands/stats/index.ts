import type { CommandContext } from '../../context.js';
import type { Root } from '../root.js';
import { declareStats } from './flags.js';

/** Adds `einvoice stats`; its implementation is imported only when it runs. */
export function addStatsCommand(root: Root, context: CommandContext): void {
  declareStats(root).action(async (_options, command) => {
    const { stats } = await import('./run.js');
    await stats(command.optsWithGlobals(), context);
  });
}
