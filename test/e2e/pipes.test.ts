import { chmodSync, closeSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { records, writeNdjson } from '../bulk/helpers.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runSpawned } from '../helpers/spawned.js';
import { homeFor } from '../helpers/profile.js';

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
    const { code } = await runSpawned(args, { home, stdoutFd: fd });
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
    const run = runSpawned(['create', 'single', '--file', 'batch.ndjson', '--json'], { home });
    // The reader leaves before the CLI writes anything, as `| head -0` does.
    run.child.stdout.destroy();
    const { code, stderr } = await run;
    expect(code).toBe(2);
    expect(stderr).toContain('record 3 (line 3): customer.mobile: is required');
    expect(stderr).toContain('1 of 3 records is invalid; nothing was sent.');
    expect(stderr).not.toContain('EPIPE');
  });
});
