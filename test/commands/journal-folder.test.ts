import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { record, writeNdjson } from '../bulk/helpers.js';
import { serversClosedAfterEach } from '../helpers/http-server.js';
import { received, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runInProcess } from '../helpers/in-process.js';
import { tempHome } from '../helpers/home.js';
import { newToken } from '../helpers/secrets.js';
import { homeFor } from '../helpers/profile.js';

// `--journal` in a folder that does not exist yet: an unattended run makes it (the user's alone, as the journal
// holds every invoice's body) and goes on; a folder that cannot be made stops the run before anything is sent.

const serve = serversClosedAfterEach();
const bulk = ['create', 'single', '--file', 'batch.ndjson', '--yes'];

describe('a journal in a folder that does not exist', () => {
  let sandbox: TestSandbox;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.close());

  it('makes the folder, with its parents, private (0700), and the run sends', async () => {
    const home = homeFor(sandbox);
    writeNdjson(home, 'batch.ndjson', [record(1, { businessReference: 'J-1' }), record(2)]);
    const before = (await received(sandbox)).count;

    const result = await runInProcess([...bulk, '--journal', 'runs/2030/batch.journal.ndjson'], {
      env: { HOME: home },
    });

    expect(result.code, result.stderr).toBe(0);
    for (const folder of ['runs', 'runs/2030']) {
      expect(statSync(join(home, folder)).mode & 0o777, folder).toBe(0o700);
    }
    expect(existsSync(join(home, 'runs/2030/batch.journal.ndjson'))).toBe(true);
    expect((await received(sandbox)).count).toBe(before + 2);
  });

  it('a dry run, which writes no journal, makes no folder', async () => {
    const home = homeFor(sandbox);
    writeNdjson(home, 'batch.ndjson', [record(1)]);

    const result = await runInProcess([...bulk, '--dry-run', '--journal', 'dry/batch.journal.ndjson'], {
      env: { HOME: home },
    });

    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(join(home, 'dry'))).toBe(false);
  });
});

describe('a journal folder that cannot be made', () => {
  // As root (a CI container) a folder without write permission can still be written: a file in the way cannot.
  it.each([
    ['the folder is a file', 'blocker/batch.journal.ndjson', 'blocker'],
    ['a folder above it is a file', 'blocker/runs/batch.journal.ndjson', 'blocker/runs'],
    // Node's recursive mkdir never returns there: every attempt at the folder meets ENOENT, its parent EEXIST.
    [
      'it is under /proc, where no folder can be made',
      '/proc/einvoice-runs/batch.journal.ndjson',
      '/proc/einvoice-runs',
    ],
  ])('%s: exit 9 naming the folder, nothing sent, an ::error in GitHub Actions', async (_case, journal, folder) => {
    const server = await serve();
    const home = tempHome();
    writeFileSync(join(home, 'blocker'), 'not a folder\n');
    writeNdjson(home, 'batch.ndjson', [record(1, { businessReference: 'J-1' })]);
    const env = { HOME: home, EINVOICE_BASE_URL: server.url, EINVOICE_TOKEN: newToken('journal-folder') };

    for (const github of [{}, { GITHUB_ACTIONS: 'true' }]) {
      const result = await runInProcess([...bulk, '--journal', journal], { env: { ...env, ...github } });

      expect(result.code, result.stderr).toBe(9);
      expect(result.stderr).toContain(`✖ Cannot make the folder ${folder} for the journal ${journal}: `);
      expect(result.stderr).toContain('nothing was sent.');
      expect(result.stderr).not.toMatch(/\n\s+at /);
      if ('GITHUB_ACTIONS' in github) {
        expect(result.stderr).toMatch(new RegExp(`^::error title=einvoice::Cannot make the folder ${folder} `, 'm'));
      } else {
        expect(result.stderr).not.toContain('::');
      }
    }
    expect(server.requests).toEqual([]);
  });

  it('an existing folder is left as it is', async () => {
    const sandbox = await startTestSandbox();
    try {
      const home = homeFor(sandbox);
      mkdirSync(join(home, 'shared'), { mode: 0o755 });
      writeNdjson(home, 'batch.ndjson', [record(1)]);
      const result = await runInProcess([...bulk, '--journal', 'shared/batch.journal.ndjson'], { env: { HOME: home } });
      expect(result.code, result.stderr).toBe(0);
      expect(statSync(join(home, 'shared')).mode & 0o777).toBe(0o755);
    } finally {
      await sandbox.close();
    }
  });
});
