import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

/**
 * The merchant's folder of a kind: the variable's path (`XDG_STATE_HOME`, `XDG_CACHE_HOME`, `LOCALAPPDATA`) when it
 * is an absolute one, else `fallback` below the home folder. An empty or relative value is ignored, as the XDG
 * specification asks: it would put einvoice's files wherever the command happens to run.
 */
function userFolder(value: string | undefined, ...fallback: string[]): string {
  return value && isAbsolute(value) ? value : join(homedir(), ...fallback);
}

/** The folder of state files: $XDG_STATE_HOME (~/.local/state), or %LOCALAPPDATA% on Windows. */
function stateHome(env: NodeJS.ProcessEnv): string {
  return process.platform === 'win32'
    ? userFolder(env.LOCALAPPDATA, 'AppData', 'Local')
    : userFolder(env.XDG_STATE_HOME, '.local', 'state');
}

/** The database that keeps the embedded sandbox's invoices between commands, in the merchant's state folder. */
export function sandboxStateFile(env: NodeJS.ProcessEnv): string {
  if (env.EINVOICE_SANDBOX_STATE) return env.EINVOICE_SANDBOX_STATE;
  return join(stateHome(env), 'einvoice', 'sandbox.sqlite');
}

/** The folder of files einvoice may delete at any time to rebuild them (Node's compile cache of the CLI). */
export function cacheFolder(env: NodeJS.ProcessEnv): string {
  const cacheHome =
    process.platform === 'win32'
      ? userFolder(env.LOCALAPPDATA, 'AppData', 'Local')
      : userFolder(env.XDG_CACHE_HOME, '.cache');
  return join(cacheHome, 'einvoice');
}

/** Where answers typed at prompts are kept when a run is interrupted or fails, so nothing typed is lost. */
export function draftFile(kind: string, env: NodeJS.ProcessEnv, now: Date): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  return join(stateHome(env), 'einvoice', 'drafts', `${kind}-${stamp}.json`);
}

/** True when `path` is a draft einvoice kept (a file in the drafts folder). */
export function isDraftFile(path: string, env: NodeJS.ProcessEnv): boolean {
  const folder = dirname(draftFile('single', env, new Date(0)));
  const inside = relative(folder, resolve(path));
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside);
}
