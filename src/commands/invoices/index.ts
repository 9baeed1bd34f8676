import type { CommandContext } from '../../context.js';
import type { Root } from '../root.js';
import { declareInvoices } from './flags.js';

/** Adds `einvoice invoices list|show|settle|export|import|forget|reconcile`; each verb is imported only when it runs. */
export function addInvoicesCommands(root: Root, context: CommandContext): void {
  const invoices = declareInvoices(root);
  invoices.list.action(async (_options, command) => {
    await (await import('./list.js')).listInvoices(command.optsWithGlobals(), context);
  });
  invoices.show.action(async (numberOrReference, _options, command) => {
    await (await import('./show.js')).showInvoice(numberOrReference, command.optsWithGlobals(), context);
  });
  invoices.settle.action(async (id, _options, command) => {
    await (await import('./settle.js')).settleInvoice(id, command.optsWithGlobals(), context);
  });
  invoices.exported.action(async (_options, command) => {
    await (await import('./export.js')).exportInvoices(command.optsWithGlobals(), context);
  });
  invoices.imported.action(async (journals, _options, command) => {
    await (await import('./import.js')).importJournals(journals, command.optsWithGlobals(), context);
  });
  invoices.forget.action(async (_options, command) => {
    await (await import('./forget.js')).forgetInvoices(command.optsWithGlobals(), context);
  });
  invoices.reconcile.action(async (orders, _options, command) => {
    await (await import('./reconcile.js')).reconcileOrders(orders, command.optsWithGlobals(), context);
  });
}
