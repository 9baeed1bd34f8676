import { spawn } from 'node:child_process';
import { isCi } from '../../context.js';

// Opening an address in the merchant's browser is one program per system; the `open` package does the same with
// several dependencies and a shell script of its own, for choices (which app, wait for it) we never make.

/** True when a browser can be shown: never in CI, and on Linux and other Unix systems only with a display. */
export function canOpenBrowser(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): boolean {
  if (isCi(env)) return false;
  if (env.BROWSER || platform === 'darwin' || platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/** The program that opens `url`: $BROWSER when set (a command name, as other tools read it), else the system's. */
export function browserCommand(
  url: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): [string, string[]] {
  if (env.BROWSER) return [env.BROWSER, [url]];
  if (platform === 'darwin') return ['open', [url]];
  if (platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler', url]];
  return ['xdg-open', [url]];
}

/** Starts the browser on `url` without waiting for it; resolves with why it could not start, or undefined. */
export function openBrowser(url: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const [command, args] = browserCommand(url, env);
  return new Promise((resolve) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore', env });
    child.once('error', (error: NodeJS.ErrnoException) => resolve(`${command}: ${error.code ?? error.message}`));
    child.once('spawn', () => {
      child.unref();
      resolve(undefined);
    });
  });
}
