import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { localProfile, writeProfile } from '../helpers/profile.js';
import { countEntries, invoicesByNote, serveSandbox, until, type ServedSandbox } from '../bulk/helpers.js';
import { runSpawned } from '../helpers/spawned.js';
import { tempHome } from '../helpers/home.js';

// A CSV run killed with SIGKILL part-way, then run again: the journal is the same as for JSON input, so every row
// is created exactly once. The instant of the kill is chosen by watching the journal, never by sleeping.

let sandbox: ServedSandbox;

beforeAll(async () => {
  sandbox = await serveSandbox(['--latency', '20']);
});
afterAll(() => sandbox.stop());

it('a CSV run killed with SIGKILL resumes: every row created exactly once', async () => {
  const home = tempHome();
  writeProfile(home, localProfile(sandbox.url, sandbox.token));
  const rows = Array.from(
    { length: 300 },
    (_, index) =>
      `C-${index + 1};"عميل ${index + 1}";+201001234567;"1,${String(index).padStart(3, '0')}.50";01/01/2030;01/01/2030;01/02/2030;Order ${index + 1}`,
  );
  const header = 'businessReference;customer.name;customer.mobile;amount;sendingDate;releaseDate;expiryDate;note';
  writeFileSync(join(home, 'sheet.csv'), `\uFEFF${[header, ...rows].join('\r\n')}\r\n`);
  const journal = join(home, 'sheet.csv.local.journal.ndjson');
  const create = ['create', 'single', '--file', 'sheet.csv', '--date-format', 'DD/MM/YYYY', '--yes'];

  const run = runSpawned([...create, '--concurrency', '4'], { home });
  await until(() => countEntries(journal, 'created') >= 50, '50 created entries in the journal');
  run.child.kill('SIGKILL');
  expect((await run).signal).toBe('SIGKILL');
  expect((await sandbox.api.invoices()).length).toBeLessThan(300);

  const rerun = await runSpawned(create, { env: { HOME: home } });
  expect(rerun.code, rerun.stderr).toBe(0);
  expect(rerun.stderr).toMatch(/Resuming from sheet\.csv\.local\.journal\.ndjson: \d+ already created/);
  const counts = await invoicesByNote(sandbox);
  expect(counts.size).toBe(300);
  for (let index = 1; index <= 300; index++) expect(counts.get(`Order ${index}`), `row ${index + 1}`).toBe(1);
}, 120_000);
