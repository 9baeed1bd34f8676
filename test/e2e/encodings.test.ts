import { once } from 'node:events';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnvironment } from '../helpers/home.js';
import { homeFor } from '../helpers/profile.js';
import { received, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { binPath } from '../helpers/spawned.js';

// A flag's bytes as a shell passes them to a process: only a process has an argv of bytes that are not UTF-8 (its
// other encodings are tested in this process, test/commands/encodings.test.ts).

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

describe('flags', () => {
  it('refuses a flag whose value is not UTF-8, naming the flag (bytes as the shell passes them)', async () => {
    const home = homeFor(sandbox);
    // The shell hands the process the raw bytes of a name typed in a terminal set to Windows-1256: `runSpawned`
    // cannot, as Node writes every argument it spawns with as UTF-8.
    const child = spawn(
      '/bin/sh',
      [
        '-c',
        `"$NODE" "$BIN" create single --customer-name "$(printf '\\343\\315\\343\\317')" --customer-mobile +201001234567 ` +
          '--amount 10 --sending-date 2030-01-01 --release-date 2030-01-01 --expiry-date 2030-02-01 --note x --yes',
      ],
      { cwd: home, env: cliEnvironment(home, { NODE: process.execPath, BIN: binPath }) },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const [code] = (await once(child, 'close')) as [number];

    expect(code).toBe(2);
    expect(stderr).toContain('customer.name (--customer-name): holds characters that could not be read');
    expect((await received(sandbox)).count).toBe(0);
  });
});
