import type { CommandContext } from '../../context.js';
import type { Root } from '../root.js';
import { declareConfig } from './flags.js';

/** Adds `einvoice config init|show|check`; each verb's implementation is imported only when it runs. */
export function addConfigCommands(root: Root, context: CommandContext): void {
  const config = declareConfig(root);
  config.init.action(async (_options, command) => {
    const { initConfig } = await import('./init.js');
    await initConfig(command.optsWithGlobals(), context);
  });
  config.show.action(async (_options, command) => {
    const { showConfig } = await import('./show.js');
    await showConfig(command.optsWithGlobals(), context);
  });
  config.check.action(async (_options, command) => {
    const { checkConfig } = await import('./check.js');
    await checkConfig(command.optsWithGlobals(), context);
  });
}
