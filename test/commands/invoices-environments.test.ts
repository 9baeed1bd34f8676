import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempHome } from '../helpers/home.js';
import { runInProcess } from '../helpers/in-process.js';
import { writeProfile } from '../helpers/profile.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { records, writeNdjson } from '../bulk/helpers.js';

// The ledger of an environment is found by its name: the journal of a CI run sent to `staging` (EINVOICE_BASE_URL,
// no profile file) is imported, listed, shown and exported on a machine with no profile entry for staging, and no
// sentence speaks of the built-in sandbox it never touched.

let sandbox: TestSandbox;
/** The CI runner that sent the journal's records, and the journal it kept. */
let journal: string;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  const runner = tempHome();
  writeNdjson(runner, 'batch.ndjson', records(3));
  const run = await runInProcess(
    ['create', 'single', '--file', 'batch.ndjson', '--yes', '--env', 'staging', '--journal', 'staging.ndjson'],
    { home: runner, env: { EINVOICE_BASE_URL: sandbox.url, EINVOICE_TOKEN: sandbox.token } },
  );
  expect(run.code, run.stderr).toBe(0);
  journal = join(runner, 'staging.ndjson');
});
afterAll(() => sandbox.close());

const ledgerOf = (home: string, environment: string) =>
  join(home, '.local', 'state', 'einvoice', 'ledger', `${environment}.sqlite`);

describe("a CI run's journal on a machine with no profile entry for its environment", () => {
  it('is imported into the ledger it names, with --env or without, never "Using the built-in sandbox"', async () => {
    const home = tempHome();
    for (const args of [['--env', 'staging'], []]) {
      const imported = await runInProcess(['invoices', 'import', journal, ...args], { home });
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stderr).toContain('3 invoices sent to staging');
      expect(imported.stderr).not.toMatch(/sandbox/i);
    }
    expect(existsSync(ledgerOf(home, 'staging'))).toBe(true);
    expect(existsSync(ledgerOf(home, 'sandbox'))).toBe(false);
  });

  it('is listed, shown and exported with --env staging', async () => {
    const home = tempHome();
    expect((await runInProcess(['invoices', 'import', journal], { home })).code).toBe(0);

    const list = await runInProcess(['invoices', 'list', '--env', 'staging', '--json'], { home });
    expect(list.code, list.stderr).toBe(0);
    const listed = JSON.parse(list.stdout) as Array<{ businessReference: string; invoiceNumber: string }>;
    expect(listed.map((invoice) => invoice.businessReference).sort()).toEqual(['REF-1', 'REF-2', 'REF-3']);

    const shown = await runInProcess(['invoices', 'show', 'REF-2', '--env', 'staging'], { home });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('"businessReference": "REF-2"');

    const exported = await runInProcess(['invoices', 'export', '--env', 'staging', '--format', 'ndjson'], { home });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout.trim().split('\n')).toHaveLength(3);
    expect(`${list.stderr}${shown.stderr}${exported.stderr}`).not.toMatch(/sandbox|Unknown environment/i);
  });

  it('is refused whole when --env names another environment, nothing imported', async () => {
    const home = tempHome();
    const refused = await runInProcess(['invoices', 'import', journal, '--env', 'production'], { home });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'staging.ndjson is the journal of a run sent to staging, not production (--env); nothing was imported.',
    );
    expect(existsSync(ledgerOf(home, 'staging'))).toBe(false);
    expect(existsSync(ledgerOf(home, 'production'))).toBe(false);
  });

  it('is refused when the profile turns the ledger of its environment off', async () => {
    const home = tempHome();
    writeProfile(home, { environments: { staging: { baseUrl: sandbox.url, token: sandbox.token, ledger: false } } });
    const refused = await runInProcess(['invoices', 'import', journal], { home });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/The ledger of staging is off \(ledger: false in .*\); nothing was imported\./);
    expect(existsSync(ledgerOf(home, 'staging'))).toBe(false);
  });
});

describe('an environment named with no ledger here', () => {
  it('says what is missing, and the ledger meant', async () => {
    const home = tempHome();
    expect((await runInProcess(['invoices', 'import', journal], { home })).code).toBe(0);
    const result = await runInProcess(['invoices', 'list', '--env', 'stagign'], { home });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      `No invoice sent to stagign is recorded in the ledger of this machine (${ledgerOf(home, 'stagign')})`,
    );
    expect(result.stderr).toContain('Did you mean --env staging? This machine keeps the ledgers of staging.');
    expect(existsSync(ledgerOf(home, 'stagign'))).toBe(false);
  });

  it('names the ledger it reads when no environment is chosen', async () => {
    const result = await runInProcess(['invoices', 'list'], { home: tempHome() });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      'The ledger of the sandbox environment (no profile file found); choose another with --env.',
    );
    expect(result.stderr).not.toContain('Using the built-in sandbox');
  });
});
