import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startTestServer, type TestServer } from '../helpers/http-server.js';
import { homeFor, localProfile, writeProfile } from '../helpers/profile.js';
import { received, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { journalEntries, record, records, writeNdjson } from '../bulk/helpers.js';
import { runInProcess } from '../helpers/in-process.js';
import { tempHome } from '../helpers/home.js';

// `einvoice create --file` with many invoices: what is refused before anything is sent, stdin, --dry-run, --json,
// --shard, and the one-invoice flow left as it was.

let sandbox: TestSandbox;
let home: string;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
afterEach(() => sandbox.api.reset(false));

function freshHome(): string {
  home = homeFor(sandbox);
  return home;
}

interface JsonReport {
  summary: Record<string, unknown>;
  records: Array<Record<string, unknown>>;
}

describe('records refused before anything is sent', () => {
  it('says "record is" when one record is invalid', async () => {
    freshHome();
    writeNdjson(home, 'one.ndjson', [{ ...records(1)[0], customer: { name: 'X' } }, ...records(2)]);
    const some = await runInProcess(['create', 'single', '--file', 'one.ndjson'], { home });
    expect(some.code).toBe(2);
    expect(some.stderr).toContain('✖ 1 of 3 records is invalid; nothing was sent.');
    writeNdjson(home, 'only.ndjson', [{ ...records(1)[0], customer: { name: 'X' } }]);
    const only = await runInProcess(['create', 'single', '--file', 'only.ndjson'], { home });
    expect(only.code).toBe(2);
    expect(only.stderr).toContain('✖ 1 record is invalid; nothing was sent.');
  });

  it('exits 2 listing every invalid record by number, line and field; --report has them all', async () => {
    freshHome();
    const lines = records(30).map((value, index) => (index % 2 === 1 ? { ...value, customer: { name: 'X' } } : value));
    writeNdjson(home, 'batch.ndjson', lines);
    const result = await runInProcess(['create', 'single', '--file', 'batch.ndjson', '--report', 'report.csv'], {
      home,
    });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('15 of 30 records are invalid; nothing was sent.');
    // The same cause on 15 records is one line naming them; the report has every record.
    expect(result.stderr).toContain(
      '  records 2, 4, 6, 8, 10, 12, 14, 16, 18, 20 and 5 more: customer.mobile: is required',
    );
    expect(result.stderr.split('\n').filter((line) => line.startsWith('  record'))).toHaveLength(1);
    expect((await received(sandbox)).count).toBe(0);
    expect(existsSync(join(home, 'batch.ndjson.local.journal.ndjson'))).toBe(false);
    const rows = readFileSync(join(home, 'report.csv'), 'utf8').trim().split('\n');
    expect(rows).toHaveLength(31);
    expect(rows[2]).toBe('2,2,REF-2,invalid,,customer.mobile: is required,');
  });

  it('refuses a --report it cannot write before anything is sent (test/private-file.test.ts: the check changes nothing)', async () => {
    freshHome();
    writeNdjson(home, 'batch.ndjson', records(3));
    const blocked = await runInProcess(
      ['create', 'single', '--file', 'batch.ndjson', '--yes', '--report', 'batch.ndjson/r.csv'],
      { home },
    );
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('✖ Cannot write --report batch.ndjson/r.csv: ');
    expect(blocked.stderr).toContain('; nothing was sent.');
    const folder = await runInProcess(['create', 'single', '--file', 'batch.ndjson', '--yes', '--report', '.'], {
      home,
    });
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain('✖ Cannot write --report .: it is a folder, not a file; nothing was sent.');
    // A folder that cannot be made is refused, not tried for ever (as Node's recursive mkdir does under /proc).
    const underProc = await runInProcess(
      ['create', 'single', '--file', 'batch.ndjson', '--yes', '--report', '/proc/einvoice-reports/r.csv'],
      { home },
    );
    expect(underProc.code).toBe(2);
    expect(underProc.stderr).toContain('✖ Cannot write --report /proc/einvoice-reports/r.csv: ');
    expect((await received(sandbox)).count).toBe(0);
    expect(existsSync(join(home, 'batch.ndjson.local.journal.ndjson'))).toBe(false);
  });

  it('says so when a file holds no invoices, and names no journal a run did not write', async () => {
    freshHome();
    writeFileSync(join(home, 'empty.ndjson'), '\n');
    const empty = await runInProcess(['create', 'single', '--file', 'empty.ndjson', '--yes'], { home });
    expect(empty.code, empty.stderr).toBe(0);
    expect(empty.stderr).toContain('--file empty.ndjson holds no invoice records: nothing to send.');
    expect(empty.stderr).not.toContain('Journal:');
    writeFileSync(join(home, 'empty.json'), '[]');
    const list = await runInProcess(['create', 'single', '--file', 'empty.json', '--yes'], { home });
    expect(list.code).toBe(2);
    expect(list.stderr).toContain('--file empty.json holds an empty list: there is no invoice to create');

    writeNdjson(home, 'bad.ndjson', [{ ...records(1)[0], customer: { name: 'X' } }]);
    const refused = await runInProcess(['create', 'single', '--file', 'bad.ndjson', '--json'], { home });
    expect(refused.code).toBe(2);
    expect((JSON.parse(refused.stdout) as JsonReport).summary).not.toHaveProperty('journal');
    expect(existsSync(join(home, 'bad.ndjson.local.journal.ndjson'))).toBe(false);
  });

  it('shows at most 20 problems on screen and says how many more there are', async () => {
    freshHome();
    writeNdjson(
      home,
      'batch.ndjson',
      records(25).map((value, index) => ({ ...value, [`extra${index}`]: 1 })),
    );
    const result = await runInProcess(['create', 'single', '--file', 'batch.ndjson'], { home });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n').filter((line) => line.startsWith('  record '))).toHaveLength(20);
    expect(result.stderr).toContain('  ...and 5 more');
  });

  it('sends the valid records with --skip-invalid and reports the others (exit 6)', async () => {
    freshHome();
    writeNdjson(home, 'batch.ndjson', [record(1), { note: 'incomplete' }, record(3)]);
    const result = await runInProcess(['create', 'single', '--file', 'batch.ndjson', '--skip-invalid', '--json'], {
      home,
    });
    expect(result.code).toBe(6);
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(report.records.map((entry) => entry.status)).toEqual(['created', 'invalid', 'created']);
    expect((await received(sandbox)).count).toBe(2);
  });

  it('reports records that repeat an earlier one (rule 2.3.2) and does not send them', async () => {
    freshHome();
    const same = { businessReference: 'INV-9', amount: 500 };
    writeNdjson(home, 'batch.ndjson', [record(1, same), record(2), record(3, { ...same, note: 'again' })]);
    const result = await runInProcess(['create', 'single', '--file', 'batch.ndjson', '--json'], { home });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('1 record repeats an earlier record');
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(report.records[2]).toMatchObject({ status: 'duplicate', duplicateOf: 1, businessReference: 'INV-9' });
    expect(report.summary).toMatchObject({ duplicatesInFile: 1 });
    expect(result.stderr).toMatch(/^ {2}duplicates in file +1$/m);
    expect((await received(sandbox)).count).toBe(2);
  });
});

describe('inputs', () => {
  it('creates the invoices of a JSON array, with flags applied to every record', async () => {
    freshHome();
    writeFileSync(join(home, 'batch.json'), JSON.stringify([record(1), record(2)], null, 2));
    const result = await runInProcess(['create', 'single', '--file', 'batch.json', '--lang', 'ar-eg'], { home });
    expect(result.code, result.stderr).toBe(0);
    const invoices = await sandbox.api.invoices();
    expect(invoices.map((invoice) => (invoice.request as Record<string, unknown>).communicationLang)).toEqual([
      'ar-eg',
      'ar-eg',
    ]);
  });

  it('tells a CSV sheet given where JSON is read (stdin, a .txt file) to add --format csv', async () => {
    freshHome();
    const sheet = 'customer.name,customer.mobile,amount\nAmr,+201001234567,10\n';
    const hint = 'Its first line reads as a CSV header: add --format csv to read it as a sheet of invoices.';
    const piped = await runInProcess(['create', 'single', '--file', '-', '--journal', 'j.ndjson'], {
      home,
      input: sheet,
    });
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain('--file stdin is not valid JSON');
    expect(piped.stderr).toContain(hint);
    writeFileSync(join(home, 'sheet.txt'), sheet);
    const named = await runInProcess(['create', 'single', '--file', 'sheet.txt'], { home });
    expect(named.code).toBe(2);
    expect(named.stderr).toContain(hint);
    // A JSON file that is merely broken gets no such hint.
    writeFileSync(join(home, 'broken.json'), '{"amount": 10,');
    expect((await runInProcess(['create', 'single', '--file', 'broken.json'], { home })).stderr).not.toContain(
      '--format csv',
    );
    expect((await received(sandbox)).count).toBe(0);
  });

  it('needs --journal to read NDJSON from stdin, and then creates it', async () => {
    freshHome();
    const input = records(3)
      .map((value) => JSON.stringify(value))
      .join('\n');
    const refused = await runInProcess(['create', 'single', '--file', '-'], { home, input });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--journal PATH is required to send records from stdin');
    expect((await received(sandbox)).count).toBe(0);

    const created = await runInProcess(['create', 'single', '--file', '-', '--journal', 'stdin.journal.ndjson'], {
      home,
      input,
    });
    expect(created.code, created.stderr).toBe(0);
    expect((await received(sandbox)).count).toBe(3);
    expect(journalEntries(join(home, 'stdin.journal.ndjson')).filter((entry) => entry.type === 'created')).toHaveLength(
      3,
    );
  });

  it('keeps a single JSON object in the one-invoice flow, and refuses bulk flags with it', async () => {
    freshHome();
    writeFileSync(join(home, 'one.json'), JSON.stringify(record(1)));
    const created = await runInProcess(['create', 'single', '--file', 'one.json'], { home });
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/^\d+\n$/);
    expect(created.stderr).toMatch(/Created single invoice \d+/);
    const refused = await runInProcess(['create', 'single', '--file', 'one.json', '--concurrency', '4'], { home });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--concurrency applies only to a --file of many invoices');
    expect((await received(sandbox)).count).toBe(1);
  });
});

describe('a journal with damaged lines', () => {
  it('says how many lines it ignored and which journal, and resumes from the rest', async () => {
    freshHome();
    writeNdjson(home, 'batch.ndjson', records(3));
    expect((await runInProcess(['create', 'single', '--file', 'batch.ndjson'], { home })).code).toBe(0);
    const journal = join(home, 'batch.ndjson.local.journal.ndjson');
    const lines = readFileSync(journal, 'utf8').split('\n');
    writeFileSync(journal, [lines[0], '{"type":"crea', ...lines.slice(1)].join('\n'));
    // In GitHub Actions it is an annotation too, and a line of the step summary.
    const summaryFile = join(home, 'step-summary.md');
    const rerun = await runInProcess(['create', 'single', '--file', 'batch.ndjson'], {
      home,
      env: { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: home, GITHUB_STEP_SUMMARY: summaryFile },
    });
    expect(rerun.code, rerun.stderr).toBe(0);
    const told = '1 damaged line of the journal batch.ndjson.local.journal.ndjson was ignored.';
    expect(rerun.stderr).toContain(told);
    expect(rerun.stderr).toMatch(/^::warning [^\n]*::1 damaged line of the journal batch\.ndjson\.local/m);
    expect(readFileSync(summaryFile, 'utf8')).toContain(`- ${told}`);
    expect(rerun.stderr).toContain('3 already created');
    expect((await received(sandbox)).count).toBe(3);
  });
});

describe('--dry-run and --json', () => {
  it('validates and reports like a run, sends nothing and writes no journal', async () => {
    freshHome();
    writeNdjson(home, 'batch.ndjson', records(4));
    const result = await runInProcess(['create', 'single', '--file', 'batch.ndjson', '--dry-run', '--json'], { home });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(report.summary).toMatchObject({ dryRun: true, total: 4, valid: 4, created: 0 });
    expect(report.records[0]).toEqual({ record: 1, line: 1, businessReference: 'REF-1', status: 'valid' });
    expect((await received(sandbox)).count).toBe(0);
    expect(existsSync(join(home, 'batch.ndjson.local.journal.ndjson'))).toBe(false);
  });

  it('says a dry run with --skip-invalid would skip the invalid records, exiting 6 as the real run would', async () => {
    freshHome();
    const values = records(4).map((value, index) => (index === 2 ? { ...value, customer: { name: 'X' } } : value));
    writeNdjson(home, 'batch.ndjson', values);
    const result = await runInProcess(['create', 'single', '--file', 'batch.ndjson', '--dry-run', '--skip-invalid'], {
      home,
    });
    expect(result.code, result.stderr).toBe(6);
    expect(result.stderr).toContain('Dry run: 1 of 4 records is invalid and would be skipped; nothing was sent.');
    expect(result.stderr).not.toContain('were not created');
    expect((await received(sandbox)).count).toBe(0);
  });

  it('prints only the JSON document on stdout, with each record and its invoice number', async () => {
    freshHome();
    writeNdjson(home, 'batch.ndjson', records(3));
    const result = await runInProcess(['create', 'single', '--file', 'batch.ndjson', '--json'], { home });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(report.summary).toMatchObject({ total: 3, created: 3, failed: 0, uncertain: 0 });
    const numbers = (await sandbox.api.invoices()).map((invoice) => invoice.invoiceNumber);
    expect(report.records).toEqual(
      numbers.map((invoiceNumber, index) => ({
        record: index + 1,
        line: index + 1,
        businessReference: `REF-${index + 1}`,
        status: 'created',
        invoiceNumber,
      })),
    );
  });
});

describe('--shard', () => {
  it('splits one file between jobs with no overlap, each with its own journal', async () => {
    freshHome();
    writeNdjson(home, 'batch.ndjson', records(10));
    for (const shard of ['1/3', '2/3', '3/3']) {
      const result = await runInProcess(['create', 'single', '--file', 'batch.ndjson', '--shard', shard], { home });
      expect(result.code, result.stderr).toBe(0);
    }
    const notes = (await sandbox.api.invoices()).map((invoice) => (invoice.request as { note: string }).note);
    expect(notes.sort()).toEqual(
      records(10)
        .map((value) => value.note as string)
        .sort(),
    );
    expect(
      journalEntries(join(home, 'batch.ndjson.local.shard-2-of-3.journal.ndjson')).filter((e) => e.type === 'created'),
    ).toHaveLength(3);
  });
});

describe('relative dates', () => {
  let server: TestServer;
  afterEach(() => server.close());

  it('resolve once: a rerun sends a failed record with the dates of the first run, as the journal says', async () => {
    // The first answer to the second record is a rejection; everything else is created.
    let rejected = false;
    server = await startTestServer((request, response, index) => {
      if (!rejected && request.body.includes('"Order 2"')) {
        rejected = true;
        return sendJson(response, 400, { code: 'VALIDATION_FAILED', message: 'not today' });
      }
      response.writeHead(201, { 'content-type': 'application/json' });
      response.end(String(1000001 + index));
    });
    const dir = tempHome();
    writeProfile(dir, localProfile(server.url, 'relative-dates-token-0123'));
    const relative = { sendingDate: 'today', releaseDate: 'now', expiryDate: '+30d' };
    writeNdjson(dir, 'batch.ndjson', [record(1, relative), record(2, relative)]);

    const first = await runInProcess(['create', 'single', '--file', 'batch.ndjson'], { home: dir });
    expect(first.code).toBe(6);
    const second = await runInProcess(['create', 'single', '--file', 'batch.ndjson'], { home: dir });
    expect(second.code, second.stderr).toBe(0);

    const bodies = server.requests.map((request) => JSON.parse(request.body) as Record<string, string>);
    expect(bodies.map((body) => body.note)).toEqual(expect.arrayContaining(['Order 1', 'Order 2']));
    const sentOrder2 = bodies.filter((body) => body.note === 'Order 2');
    expect(sentOrder2).toHaveLength(2);
    expect(sentOrder2[1]).toEqual(sentOrder2[0]);
    const header = journalEntries(join(dir, 'batch.ndjson.local.journal.ndjson')).find((entry) => entry.type === 'run');
    expect(sentOrder2[1]?.releaseDate).toBe(header?.resolveDatesAt);
  });
});

describe('a refused token', () => {
  let server: TestServer;
  afterEach(() => server.close());

  it('stops the whole run at the first 401 with exit 3', async () => {
    server = await startTestServer((_request, response) => sendJson(response, 401, { message: 'expired' }));
    const dir = tempHome();
    writeProfile(dir, localProfile(server.url, 'refused-token-0123456789'));
    writeNdjson(dir, 'batch.ndjson', records(50));
    const result = await runInProcess(['create', 'single', '--file', 'batch.ndjson', '--concurrency', '1', '--json'], {
      home: dir,
    });
    expect(result.code).toBe(3);
    expect(server.requests).toHaveLength(1);
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(report.summary).toMatchObject({ failed: 1, notSent: 49 });
  });
});
