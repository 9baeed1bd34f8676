import { homedir } from 'node:os';
import { join } from 'node:path';

/** The file that keeps the embedded sandbox's invoices between commands, in the merchant's state folder. */
export function sandboxStateFile(env: NodeJS.ProcessEnv): string {
  if (env.EINVOICE_SANDBOX_STATE) return env.EINVOICE_SANDBOX_STATE;
  const stateHome =
    process.platform === 'win32'
      ? (env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'))
      : (env.XDG_STATE_HOME ?? join(homedir(), '.local', 'state'));
  return join(stateHome, 'einvoice', 'sandbox.json');
}

/** The folder of files einvoice may delete at any time to rebuild them (V8's code cache of the CLI). */
export function cacheFolder(env: NodeJS.ProcessEnv): string {
  const cacheHome =
    process.platform === 'win32'
      ? (env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'))
      : (env.XDG_CACHE_HOME ?? join(homedir(), '.cache'));
  return join(cacheHome, 'einvoice');
}

/** Where answers typed at prompts are kept when a run is interrupted or fails, so nothing typed is lost. */
export function draftFile(kind: string, env: NodeJS.ProcessEnv, now: Date): string {
  const stateFile = sandboxStateFile({ ...env, EINVOICE_SANDBOX_STATE: undefined });
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  return join(stateFile, '..', 'drafts', `${kind}-${stamp}.json`);
}
