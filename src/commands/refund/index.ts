import type { CommandContext } from '../../context.js';
import type { Root } from '../root.js';
import { declareRefund } from './flags.js';

/** Adds `einvoice refund`; its implementation is imported only when it runs. */
export function addRefundCommand(root: Root, context: CommandContext): void {
  declareRefund(root).action(async (invoiceNumber, _options, command) => {
    const { refund } = await import('./run.js');
    await refund({ ...command.optsWithGlobals(), invoiceNumber }, context);
  });
}
