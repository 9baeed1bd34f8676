import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { received, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { record, writeNdjson } from '../bulk/helpers.js';
import { runInProcess } from '../helpers/in-process.js';
import { homeFor } from '../helpers/profile.js';

/**
 * `einvoice create ...args` in GitHub Actions: the token is registered with `::add-mask::` (the one line that may
 * hold it), so the run is checked for it without that line.
 */
async function runInActions(home: string, args: string[], env: Record<string, string>) {
  const result = await runInProcess(['create', ...args], { home, env: { GITHUB_ACTIONS: 'true', ...env } });
  const shown = result.stderr.split('\n').filter((line) => !line.startsWith('::add-mask::'));
  expect(`${result.stdout}${shown.join('\n')}`).not.toContain(sandbox.token);
  return result;
}

// An unattended run is as careful as a person at a terminal: --yes answers the question and nothing more, every
// warning of a record reaches every output (report, --json, JUnit, GitHub's annotations and step summary), and
// --strict refuses what a person would have looked at.

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
afterEach(() => sandbox.api.reset(false));

/** Items adding up to 281.10, as a public Java integration sends them with an amount of 150.00. */
const items = [{ itemCode: 'SKU-1', nameEn: 'Shirt', nameAr: 'قميص', price: 140.55, purchasedQuantity: 2 }];

interface JsonReport {
  summary: Record<string, unknown>;
  records: Array<Record<string, unknown>>;
}

describe('an amount that differs from its items', () => {
  it('is refused with --yes, naming both figures; --keep-amount sends it, a warning in every output', async () => {
    const home = homeFor(sandbox);
    writeNdjson(home, 'java.ndjson', [record(1, { businessReference: 'J-1', amount: 150, items })]);

    const refused = await runInProcess(['create', 'single', '--file', 'java.ndjson', '--yes'], { home });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'record 1 (line 1): amount: is 150.00, the items add up to 281.10: --keep-amount sends 150.00, --amount-from-items sends 281.10',
    );
    expect((await received(sandbox)).count).toBe(0);

    const kept = await runInActions(
      home,
      ['single', '--file', 'java.ndjson', '--yes', '--keep-amount', '--json', '--report', 'report.csv'],
      { GITHUB_WORKSPACE: home },
    );
    expect(kept.code, kept.stderr).toBe(0);
    expect((await received(sandbox)).last?.request).toMatchObject({ amount: 150 });
    const warning = "amount: 150.00 differs from the items' total 281.10; sent as given (--keep-amount)";
    const report = JSON.parse(kept.stdout) as JsonReport;
    expect(report.records[0]).toMatchObject({
      status: 'created',
      warnings: [
        { path: 'amount', message: "150.00 differs from the items' total 281.10; sent as given (--keep-amount)" },
      ],
    });
    expect(report.summary).toMatchObject({ withWarnings: 1 });
    expect(readFileSync(join(home, 'report.csv'), 'utf8')).toContain(`,created,`);
    expect(readFileSync(join(home, 'report.csv'), 'utf8')).toContain(warning);
    expect(kept.stderr).toMatch(
      /^::warning file=java\.ndjson,line=1,title=einvoice%3A to look at::record 1 \(J-1\): amount: 150\.00 differs/m,
    );
  });

  it('of many records is one line that keeps each record beside its own figures', async () => {
    const home = homeFor(sandbox);
    const shirts = [{ ...items[0], price: 70, purchasedQuantity: 2 }];
    writeNdjson(home, 'java.ndjson', [
      record(1, { businessReference: 'J-1', amount: 150, items: shirts }),
      record(2, { businessReference: 'J-2', amount: 140, items: shirts }),
      record(3, { businessReference: 'J-3', amount: 150, items }),
    ]);
    const refused = await runInProcess(['create', 'single', '--file', 'java.ndjson', '--yes'], { home });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      "  records 1 (150.00 ≠ 140.00), 3 (150.00 ≠ 281.10): amount: differs from the items' total: --keep-amount sends the amount as given, --amount-from-items the items' total\n",
    );
    expect((await received(sandbox)).count).toBe(0);
  });

  it('sends the items total with --amount-from-items, and says so', async () => {
    const home = homeFor(sandbox);
    writeNdjson(home, 'java.ndjson', [record(1, { businessReference: 'J-2', amount: 150, items })]);
    const result = await runInProcess(['create', 'single', '--file', 'java.ndjson', '--yes', '--amount-from-items'], {
      home,
    });
    expect(result.code, result.stderr).toBe(0);
    expect((await received(sandbox)).last?.request).toMatchObject({ amount: 281.1 });
    expect(result.stderr).toContain('sent as 281.10 (--amount-from-items)');
  });
});

describe('one run tells the whole truth', () => {
  it('names a bad mobile, an unknown field, the amount against its items and a 2022 expiry in one dry run', async () => {
    const home = homeFor(sandbox);
    const body = {
      ...record(1, { businessReference: 'SPRING-1', amount: 150, items }),
      customer: { name: 'Amr', mobile: '010123456' },
      sendingDate: '2022-03-01',
      releaseDate: '2022-03-01',
      expiryDate: '2022-04-01',
      orderId: 'A-1',
    };
    writeFileSync(join(home, 'body.json'), JSON.stringify(body));
    const result = await runInProcess(['create', 'single', '--file', 'body.json', '--dry-run'], { home });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('customer.mobile: 010123456 is not an Egyptian mobile: 9 digits');
    expect(result.stderr).toMatch(/orderId.*: /);
    expect(result.stderr).toContain('--drop-unknown-fields sends it without the fields the spec does not list');
    expect(result.stderr).toContain('is 150.00, the items add up to 281.10');
    expect(result.stderr).toMatch(/expiryDate.*has already passed/);
  });

  it('advises dates that pass when the sending date has passed, and the advice followed works', async () => {
    const home = homeFor(sandbox);
    const body = {
      ...record(1, { businessReference: 'OLD-1' }),
      sendingDate: '2022-03-01',
      releaseDate: '2022-03-01',
      expiryDate: '2023-03-01',
    };
    writeFileSync(join(home, 'old.json'), JSON.stringify(body));
    const refused = await runInProcess(['create', 'single', '--file', 'old.json'], { home });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--sending-date today --release-date today --expiry-date +30d');
    const followed = await runInProcess(
      [
        'create',
        'single',
        '--file',
        'old.json',
        '--sending-date',
        'today',
        '--release-date',
        'today',
        '--expiry-date',
        '+30d',
      ],
      { home },
    );
    expect(followed.code, followed.stderr).toBe(0);
  });

  it('tells the same cause on many rows once, naming the rows', async () => {
    const home = homeFor(sandbox);
    const rows = Array.from(
      { length: 300 },
      (_, index) => `R-${index},Customer ${index},01012345678,100,01/12/2030,01/12/2030,31/12/2030,Order`,
    );
    writeFileSync(
      join(home, 'slashes.csv'),
      ['businessReference,customer.name,customer.mobile,amount,sendingDate,releaseDate,expiryDate,note', ...rows].join(
        '\n',
      ),
    );
    const result = await runInProcess(['create', 'single', '--file', 'slashes.csv', '--dry-run'], { home });
    expect(result.code).toBe(2);
    const listed = result.stderr.split('\n').filter((line) => line.startsWith('  '));
    expect(listed).toEqual([
      '  rows 2-301: column sendingDate (E), column releaseDate (F), column expiryDate (G): a date with slashes is read only as declared, with --date-format DD/MM/YYYY',
    ]);
  });

  it('says to fix the dates of expired records first, naming --allow-expired as the exception', async () => {
    const home = homeFor(sandbox);
    writeNdjson(home, 'expired.ndjson', [
      record(1, {
        businessReference: 'E-1',
        sendingDate: '2022-01-01',
        releaseDate: '2022-01-01',
        expiryDate: '2022-02-01',
      }),
    ]);
    const result = await runInProcess(['create', 'single', '--file', 'expired.ndjson', '--yes'], { home });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /held back for its dates alone: fix it first .*only as an exception, --allow-expired/,
    );
  });
});

describe('records sent with --allow-expired', () => {
  it('are one line that says they were sent, each expiry beside its record', async () => {
    // The expiries below are the ends of UTC's days.
    const home = homeFor(sandbox, { timeZone: 'UTC' });
    const expired = (index: number, expiryDate: string) =>
      record(index, {
        businessReference: `X-${index}`,
        sendingDate: '2022-01-01',
        releaseDate: '2022-01-01',
        expiryDate,
      });
    writeNdjson(home, 'expired.ndjson', [expired(1, '2022-02-01'), expired(2, '2022-03-01')]);
    const result = await runInProcess(
      ['create', 'single', '--file', 'expired.ndjson', '--dry-run', '--allow-expired'],
      {
        home,
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      '  records 1 (2022-02-01T23:59:59.999Z), 2 (2022-03-01T23:59:59.999Z): expiryDate: has already passed: the customer could not pay it; sent (--allow-expired)\n',
    );
  });
});

describe('mobile numbers of the Egyptian plan', () => {
  const mobiles = {
    '010123456': '010123456 is not an Egyptian mobile: 9 digits, one has 11',
    '0123556677': '0123556677 is the old 10-digit form of an Egyptian mobile',
    '1012345678': '1012345678 looks like a number whose leading 0 a spreadsheet dropped (01012345678?)',
    '+2001012345678': 'after +20 comes the number without its leading 0 (+201012345678?)',
  };

  it('warns of each number that is not an Egyptian mobile, sends it as given, and refuses it with --strict', async () => {
    const home = homeFor(sandbox);
    const bodies = Object.keys(mobiles).map((mobile, index) =>
      record(index + 1, { businessReference: `M-${index + 1}`, customer: { name: 'Amr', mobile } }),
    );
    writeNdjson(home, 'mobiles.ndjson', [
      ...bodies,
      record(9, { businessReference: 'M-9', customer: { name: 'Mona', mobile: '0111 234-5678' } }),
      record(10, { businessReference: 'M-10', customer: { name: 'Jean', mobile: '+33612345678' } }),
    ]);
    const strict = await runInProcess(['create', 'single', '--file', 'mobiles.ndjson', '--yes', '--strict'], { home });
    expect(strict.code).toBe(2);
    expect((await received(sandbox)).count).toBe(0);
    expect(strict.stderr).toContain(`✖ ${bodies.length} of 6 records are invalid; nothing was sent.`);
    for (const message of Object.values(mobiles)) expect(strict.stderr).toContain(message);
    expect(strict.stderr).toMatch(/held back for their warnings \(strict\)/);

    const sent = await runInProcess(['create', 'single', '--file', 'mobiles.ndjson', '--yes'], { home });
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stderr).toContain('4 records have 4 warnings to look at:');
    for (const message of Object.values(mobiles)) expect(sent.stderr).toContain(message);
    const requests = (await sandbox.api.invoices()).map(
      (invoice) => invoice.request as { customer: { mobile: string } },
    );
    expect(requests.map((request) => request.customer.mobile).sort()).toEqual([
      '+2001012345678',
      '+33612345678',
      '010123456',
      '01112345678',
      '0123556677',
      '1012345678',
    ]);
  });

  it('refuses one invoice whose mobile is to look at under a profile that is strict', async () => {
    const home = homeFor(sandbox);
    const profile = JSON.parse(readFileSync(join(home, '.einvoicerc.json'), 'utf8')) as {
      environments: Record<string, Record<string, unknown>>;
    };
    for (const environment of Object.values(profile.environments)) environment.strict = true;
    writeFileSync(join(home, '.einvoicerc.json'), JSON.stringify(profile));
    writeFileSync(
      join(home, 'one.json'),
      JSON.stringify(record(1, { businessReference: 'S-1', customer: { name: 'Amr', mobile: '0123556677' } })),
    );
    const refused = await runInProcess(['create', 'single', '--file', 'one.json', '--yes'], { home });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('customer.mobile: 0123556677 is the old 10-digit form');
    expect((await received(sandbox)).count).toBe(0);

    const sent = await runInProcess(['create', 'single', '--file', 'one.json', '--yes', '--no-strict'], { home });
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stderr).toContain('customer.mobile: 0123556677 is the old 10-digit form');
  });
});

describe('records without a businessReference', () => {
  it('are one warning of the run naming --reference-prefix, and refused under --strict without it', async () => {
    const home = homeFor(sandbox);
    writeNdjson(
      home,
      'plain.ndjson',
      Array.from({ length: 10 }, (_, index) => record(index + 1)),
    );
    const dry = await runInProcess(['create', 'single', '--file', 'plain.ndjson', '--dry-run'], { home });
    expect(dry.code, dry.stderr).toBe(0);
    const warnings = dry.stderr.split('\n').filter((line) => line.includes('--reference-prefix'));
    expect(warnings).toEqual([
      '! 10 records have no businessReference: only this journal knows whether they were created, and a run from another journal (a new workflow run, another machine) would create them again. --reference-prefix gives each one a reference from its content.',
    ]);

    const strict = await runInProcess(['create', 'single', '--file', 'plain.ndjson', '--yes', '--strict'], { home });
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain('records 1-10: businessReference: is required under --strict');
    expect(strict.stderr).toContain('give the records without a businessReference one (--reference-prefix)');
    expect((await received(sandbox)).count).toBe(0);

    const prefixed = await runInProcess(
      ['create', 'single', '--file', 'plain.ndjson', '--yes', '--strict', '--reference-prefix', 'ci-'],
      { home },
    );
    expect(prefixed.code, prefixed.stderr).toBe(0);
    expect((await received(sandbox)).count).toBe(10);
    expect(prefixed.stderr).not.toContain('no businessReference');
  });
});

describe('in GitHub Actions', () => {
  const sheet = [
    'businessReference,customer.name,customer.mobile,amount,sendingDate,releaseDate,expiryDate,note',
    'G-1,سارة أحمد,01012345678,100,2030-01-01,2030-01-01,2030-02-01,One',
    'G-2,محمد علي,1012345678,100,2030-01-01,2030-01-01,2030-02-01,Two',
  ].join('\r\n');

  it('annotates a warning on its row, and carries it in the CSV report, JUnit and the step summary; --strict refuses it', async () => {
    const home = homeFor(sandbox);
    writeFileSync(join(home, 'sheet.csv'), `\uFEFF${sheet}\r\n`);
    const summaryFile = join(home, 'summary.md');
    const env = { GITHUB_WORKSPACE: home, GITHUB_STEP_SUMMARY: summaryFile };
    for (const report of ['report.csv', 'report.xml']) {
      await sandbox.api.reset(false);
      const result = await runInActions(
        home,
        ['single', '--file', 'sheet.csv', '--yes', '--report', `reports/${report}`, '--journal', `${report}.journal`],
        env,
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(
        /^::warning file=sheet\.csv,line=3,title=einvoice%3A to look at::row 3 \(G-2\): customer\.mobile: 1012345678 looks like a number whose leading 0/m,
      );
    }
    expect(readFileSync(join(home, 'reports', 'report.csv'), 'utf8').split('\n')[2]).toContain(
      'customer.mobile: 1012345678 looks like a number whose leading 0',
    );
    // The report's folder was made for it, as the journal's is.
    const junit = readFileSync(join(home, 'reports', 'report.xml'), 'utf8');
    expect(junit).toMatch(
      /<testcase name="row 3 \(G-2\)"[^>]*>\n\s*<system-out>warning: customer\.mobile: 1012345678 looks like/,
    );
    expect(junit).toContain('failures="0"');
    const summary = readFileSync(summaryFile, 'utf8');
    expect(summary).toContain('#### Warnings');
    expect(summary).toMatch(/\| 3 \(G-2\) \| created \| customer\.mobile: 1012345678 looks like/);

    await sandbox.api.reset(false);
    writeFileSync(summaryFile, '');
    const strict = await runInActions(
      home,
      ['single', '--file', 'sheet.csv', '--yes', '--strict', '--journal', 'strict.journal'],
      env,
    );
    expect(strict.code).toBe(2);
    expect((await received(sandbox)).count).toBe(0);
    expect(strict.stderr).toMatch(/^::error file=sheet\.csv,line=3,title=einvoice%3A invalid::/m);
    // What strict refuses is told once, as the record's problem, not also as a warning.
    expect(strict.stderr).not.toMatch(/^::warning file=sheet\.csv,line=3,/m);
    expect(strict.stderr).toContain('or pass --no-strict to send them with their warnings.');
    // What to do next fits a run refused for invalid records: fix them, never "send the failed ones".
    const refusedSummary = readFileSync(summaryFile, 'utf8');
    expect(refusedSummary).toContain('skip-invalid: true in the GitHub Action');
    expect(refusedSummary).not.toContain('send the failed ones');
  });
});
