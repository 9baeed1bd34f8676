import type { CommandContext } from '../../context.js';
import { createInvoiceCommand, type CreateOptions } from './create-invoice.js';

/** `einvoice create recurring`. */
export function createRecurring(options: CreateOptions, context: CommandContext): Promise<void> {
  return createInvoiceCommand('recurring', options, context);
}
