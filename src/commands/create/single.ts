import type { CommandContext } from '../../context.js';
import { createInvoiceCommand, type CreateOptions } from './create-invoice.js';

/** `einvoice create single`. */
export function createSingle(options: CreateOptions, context: CommandContext): Promise<void> {
  return createInvoiceCommand('single', options, context);
}
