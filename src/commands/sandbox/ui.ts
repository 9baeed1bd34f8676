import { sandboxStateFile } from '../../config/paths.js';
import { resolveProfile } from '../../config/profile.js';
import type { CommandContext } from '../../context.js';
import type { UiOptions } from './flags.js';
import { serveSandbox } from './serve.js';

/**
 * `einvoice sandbox ui`: serves the built-in sandbox, over the state file the other commands use, with its dashboard
 * on a loopback port, and opens the dashboard in the browser when there is one. Runs until SIGINT or SIGTERM.
 */
export async function sandboxUi(options: UiOptions, context: CommandContext): Promise<void> {
  // The profile's currency and time zone: amounts and times shown as every other command shows them.
  const { currency, timeZone } = await resolveProfile({
    env: options.env,
    config: options.config,
    cwd: context.cwd,
    environment: context.env,
  });
  await serveSandbox(
    {
      ...options,
      host: '127.0.0.1',
      state: sandboxStateFile(context.env),
      demo: true,
      builtIn: true,
      ui: true,
      currency,
      timeZone,
    },
    context,
  );
}
