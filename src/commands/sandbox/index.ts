import type { CommandContext } from '../../context.js';
import type { Root } from '../root.js';
import { declareSandbox } from './flags.js';

/** Adds `einvoice sandbox` and its verbs; each verb's implementation is imported only when it runs. */
export function addSandboxCommands(root: Root, context: CommandContext): void {
  const sandbox = declareSandbox(root);
  sandbox.serve.action(async (_options, command) => {
    const { serveSandbox } = await import('./serve.js');
    await serveSandbox(command.optsWithGlobals(), context);
  });
  sandbox.ui.action(async (_options, command) => {
    const { sandboxUi } = await import('./ui.js');
    await sandboxUi(command.optsWithGlobals(), context);
  });
  sandbox.reset.action(async (_options, command) => {
    const { resetSandbox } = await import('./admin.js');
    await resetSandbox(command.optsWithGlobals(), context);
  });
  for (const name of ['pay', 'cancel'] as const) {
    sandbox[name].action(async (invoiceNumber, _options, command) => {
      const { settleSandboxInvoice } = await import('./admin.js');
      await settleSandboxInvoice(name, { ...command.optsWithGlobals(), invoiceNumber }, context);
    });
  }
  sandbox.expire.action(async (_options, command) => {
    const { advanceSandboxClock } = await import('./admin.js');
    await advanceSandboxClock(command.optsWithGlobals(), context);
  });
  sandbox.outbox.action(async (_options, command) => {
    const { showSandboxOutbox } = await import('./admin.js');
    await showSandboxOutbox(command.optsWithGlobals(), context);
  });
  sandbox.export.action(async (_options, command) => {
    const { exportSandbox } = await import('./export.js');
    await exportSandbox(command.optsWithGlobals(), context);
  });
}
