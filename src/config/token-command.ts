import { AuthError } from '../errors.js';

/** Why the command failed, in the shell's terms: 127 and 126 are its own codes for a command it could not run. */
function failure(code: number | null, signal: NodeJS.Signals | null): string {
  if (code === 127) return 'could not be run: the shell found no such command (exit 127)';
  if (code === 126) return 'could not be run: the shell could not execute it (exit 126)';
  return `exited with ${String(code ?? signal ?? 'an error')}`;
}

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** The longest a tokenCommand may print for; more is not a token. */
const maxOutput = 64 * 1024;

/**
 * Runs a profile's `tokenCommand` (e.g. a password manager's read) and returns its trimmed stdout. It runs for at
 * most `timeoutMs` (--timeout, 30 s by default); then it and whatever it started are stopped.
 */
export async function runTokenCommand(
  command: string,
  environmentName: string,
  env: NodeJS.ProcessEnv,
  timeoutMs = 30_000,
): Promise<string> {
  // Node's child_process loads only for a profile that has a tokenCommand.
  const { spawn } = process.getBuiltinModule('node:child_process');
  const windows = process.platform === 'win32';
  const shell = windows ? 'cmd.exe' : '/bin/sh';
  const args = windows ? ['/d', '/s', '/c', command] : ['-c', command];
  const refuse = (reason: string, hint = 'Run the command yourself to check it prints the token on stdout.') =>
    new AuthError(`The tokenCommand of the ${environmentName} environment ${reason}.`, { hint });
  return new Promise((resolve, reject) => {
    // Its own process group, so that a time-out stops what the shell started too (a pipe left open would wait).
    const child = spawn(shell, args, { env, detached: !windows, stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    let settled = false;
    const stop = () => {
      try {
        if (!windows && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    const timer = setTimeout(() => {
      stop();
      settle(() =>
        reject(
          refuse(
            `timed out after ${plural(Math.ceil(timeoutMs / 1000), 'second')}`,
            'Raise the limit with --timeout SECONDS, or run the command yourself to check it ends.',
          ),
        ),
      );
    }, timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.length > maxOutput) {
        stop();
        // The command's own output may hold the secret, so none of it is repeated here.
        settle(() => reject(refuse(`printed more than ${maxOutput / 1024} KiB`)));
      }
    });
    child.on('error', (error) => settle(() => reject(refuse(`could not be run: ${error.message}`))));
    child.on('close', (code, signal) => {
      const token = stdout.trim();
      settle(() => {
        if (code !== 0 || token === '') reject(refuse(code !== 0 ? failure(code, signal) : 'printed nothing'));
        else resolve(token);
      });
    });
  });
}
