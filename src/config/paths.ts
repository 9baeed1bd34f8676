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

/**
 * The merchant's ledger of one environment: what einvoice sent there from this machine (or imported), in the state
 * folder, or in $EINVOICE_LEDGER_DIR when it names a folder.
 */
export function ledgerFile(environment: string, env: NodeJS.ProcessEnv): string {
  const folder =
    env.EINVOICE_LEDGER_DIR && isAbsolute(env.EINVOICE_LEDGER_DIR)
      ? env.EINVOICE_LEDGER_DIR
      : join(stateHome(env), 'einvoice', 'ledger');
  // An environment named only by EINVOICE_ENV may hold any character: each outside [A-Za-z0-9_-] is spelled out.
  const name = environment.replace(/[^A-Za-z0-9_-]/g, (char) => `%${char.codePointAt(0)?.toString(16)}`);
  return join(folder, `${name}.sqlite`);
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
