import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import type { CommandContext } from '../../src/context.js';
import { main } from '../../src/index.js';
import { tempHome } from './cli.js';

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `einvoice ...args` in this process through `main()`, in `home` (a fresh one by default) with a clean
 * environment plus `env`: no spawned process, the same code path as bin/.
 */
export async function runInProcess(
  args: string[],
  options: { home?: string; env?: Record<string, string>; cwd?: string } = {},
): Promise<InProcessResult> {
  const home = options.home ?? tempHome();
  const collect = () => {
    let text = '';
    const stream = new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        text += chunk.toString();
        done();
      },
    });
    return { stream, text: () => text };
  };
  const stdout = collect();
  const stderr = collect();
  const stdin = new PassThrough();
  stdin.end();
  const context: CommandContext = {
    stdin,
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: {
      HOME: home,
      XDG_STATE_HOME: join(home, '.local', 'state'),
      XDG_CONFIG_HOME: join(home, '.config'),
      CI: 'true',
      ...options.env,
    },
    cwd: options.cwd ?? home,
  };
  const code = await main(['node', 'einvoice', ...args], context);
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
