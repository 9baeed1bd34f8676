import { AuthError } from '../errors.js';

/** Why the command failed, in the shell's terms: 127 and 126 are its own codes for a command it could not run. */
function failure(error: { code?: unknown; signal?: unknown }): string {
  if (error.code === 127) return 'could not be run: the shell found no such command (exit 127)';
  if (error.code === 126) return 'could not be run: the shell could not execute it (exit 126)';
  return `exited with ${String(error.code ?? error.signal ?? 'an error')}`;
}

/** Runs a profile's `tokenCommand` (e.g. a password manager's read) and returns its trimmed stdout. */
export async function runTokenCommand(
  command: string,
  environmentName: string,
  env: NodeJS.ProcessEnv,
): Promise<string> {
  // Node's child_process loads only for a profile that has a tokenCommand.
  const { execFile } = process.getBuiltinModule('node:child_process');
  const shell = process.platform === 'win32' ? 'cmd.exe' : '/bin/sh';
  const args = process.platform === 'win32' ? ['/d', '/s', '/c', command] : ['-c', command];
  return new Promise((resolve, reject) => {
    execFile(shell, args, { env, timeout: 30_000, maxBuffer: 64 * 1024 }, (error, stdout) => {
      const token = String(stdout).trim();
      if (error || token === '') {
        // The command's own output may hold the secret, so none of it is repeated here.
        const reason = error ? failure(error) : 'printed nothing';
        reject(
          new AuthError(`The tokenCommand of the ${environmentName} environment ${reason}.`, {
            hint: `Run the command yourself to check it prints the token on stdout.`,
          }),
        );
        return;
      }
      resolve(token);
    });
  });
}
