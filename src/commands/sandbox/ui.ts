import { legacySandboxStateFile, sandboxStateFile } from '../../config/paths.js';
import type { CommandContext } from '../../context.js';
import type { UiOptions } from './flags.js';
import { serveSandbox } from './serve.js';

/**
 * `einvoice sandbox ui`: serves the built-in sandbox, over the state file the other commands use, with its dashboard
 * on a loopback port, and opens the dashboard in the browser when there is one. Runs until SIGINT or SIGTERM.
 */
export async function sandboxUi(options: UiOptions, context: CommandContext): Promise<void> {
  await serveSandbox(
    {
      ...options,
      host: '127.0.0.1',
      state: sandboxStateFile(context.env),
      legacyState: legacySandboxStateFile(context.env),
      demo: true,
      ui: true,
    },
    context,
  );
}
