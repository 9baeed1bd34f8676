import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, closeSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { records, writeNdjson } from '../bulk/helpers.js';
import { binPath } from '../helpers/cli.js';
import { homeFor } from '../helpers/create-cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

// A report written into what stdout is, and a reader that closes stdout early, which changes neither the exit code
// nor the errors on stderr: a process's pipes. File modes are tested in test/commands/private-files.test.ts.

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('a report into a stream', () => {
  it('--report /dev/stdout writes into what stdout is, and leaves its mode to the user', async () => {
    const home = homeFor(sandbox);
    writeNdjson(home, 'batch.ndjson', records(2));
    const out = join(home, 'out.ndjson');
    writeFileSync(out, '', { mode: 0o644 });
    chmodSync(out, 0o644);
    const fd = openSync(out, 'w');
    const args = ['create', 'single', '--file', 'batch.ndjson', '--yes', '--report', '/dev/stdout'];
    const child = spawn(process.execPath, [binPath, ...args], {
      cwd: home,
      env: { PATH: process.env.PATH ?? '', HOME: home, XDG_STATE_HOME: join(home, '.state'), CI: 'true' },
      stdio: ['ignore', fd, 'pipe'],
    });
    child.stderr?.resume();
    const [code] = (await once(child, 'close')) as [number];
    closeSync(fd);
    expect(code).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('"businessReference":"REF-2"');
    expect(modeOf(out)).toBe(0o644);
  });
});

describe('a closed stdout', () => {
  it('invalid records still exit 2, and the error naming each record still reaches stderr', async () => {
    const home = homeFor(sandbox);
    writeNdjson(home, 'batch.ndjson', [...records(2), { ...records(1)[0], customer: { name: 'X' } }]);
    const child = spawn(process.execPath, [binPath, 'create', 'single', '--file', 'batch.ndjson', '--json'], {
      cwd: home,
      env: { PATH: process.env.PATH ?? '', HOME: home, XDG_STATE_HOME: join(home, '.state'), CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The reader leaves before the CLI writes anything, as `| head -0` does.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', (exit) => resolve(exit)));
    expect(code).toBe(2);
    expect(stderr).toContain('record 3 (line 3): customer.mobile: is required');
    expect(stderr).toContain('1 of 3 records is invalid; nothing was sent.');
    expect(stderr).not.toContain('EPIPE');
  });
});
