import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { homeFor, localProfile, writeProfile } from '../helpers/profile.js';
import { tempHome } from '../helpers/home.js';
import { writeHandMadeWorkbook, type HandCell } from '../helpers/workbook.js';

// `einvoice refund --file`: refunds from a sheet or NDJSON on the bulk engine. Every record is checked first, the
// count and total are told and can be pinned, and a refund whose request may have left is never sent again by a
// rerun: the spec gives a refund no idempotency key.

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
afterEach(() => sandbox.api.reset(false));

/** Runs `einvoice refund ...args` in this process in `home`, failing the test if a token is printed. */
function runRefund(home: string, args: string[]) {
  return runInProcess(['refund', ...args], { home });
}

/** `count` paid invoices of the sandbox `api`, as a sheet of their refunds (each of `amount`). */
async function paidInvoicesSheet(api: TestSandbox['api'], count: number, amount = '10.50') {
  const rows = ['invoiceNumber,amount,reason,orderReferenceNumber'];
  const numbers: string[] = [];
  for (let index = 0; index < count; index++) {
    const { invoiceNumber, orderReferenceNumber } = await api.createPaidInvoice({ amount: 100 });
    numbers.push(invoiceNumber);
    rows.push(`${invoiceNumber},${amount},Returned after the sale,${orderReferenceNumber}`);
  }
  return { csv: `${rows.join('\r\n')}\r\n`, numbers };
}

/** The header of a workbook of refunds, as the refunds template has it. */
const refundHeader: HandCell[] = ['invoiceNumber', 'amount', 'reason', 'orderReferenceNumber'].map((name) => ({
  shared: name,
}));

interface JsonReport {
  summary: Record<string, unknown>;
  records: Array<Record<string, unknown>>;
}

describe('refunds from a file', () => {
  it('refunds 50 paid invoices from a CSV, says the count and total first; a rerun sends nothing', async () => {
    const home = homeFor(sandbox);
    const { csv, numbers } = await paidInvoicesSheet(sandbox.api, 50);
    writeFileSync(join(home, 'refunds.csv'), csv);

    const dry = await runRefund(home, ['--file', 'refunds.csv', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain('50 refunds to send, 525.00 in all (local).');

    const run = await runRefund(home, ['--file', 'refunds.csv', '--yes', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as JsonReport;
    expect(report.summary).toMatchObject({ kind: 'refund', total: 50, refunded: 50 });
    expect(new Set(report.records.map((record) => record.status))).toEqual(new Set(['refunded']));
    expect(report.records.map((record) => record.invoiceNumber)).toEqual(numbers);
    for (const number of numbers) expect((await sandbox.api.invoice(number))?.status).toBe('REFUNDED');

    const rerun = await runRefund(home, ['--file', 'refunds.csv', '--yes', '--json']);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect((JSON.parse(rerun.stdout) as JsonReport).summary).toMatchObject({ refunded: 0, refundedEarlier: 50 });
    expect(rerun.stderr).toContain('0 refunds to send');
  });

  it('in GitHub Actions: annotates a refused refund by its row, counts refunds in the step summary, and writes JUnit', async () => {
    const home = homeFor(sandbox);
    const { csv, numbers } = await paidInvoicesSheet(sandbox.api, 3);
    // Row 3 asks back more than its invoice's amount: the service refuses it.
    writeFileSync(join(home, 'refunds.csv'), csv.replace(`${numbers[1]},10.50,`, `${numbers[1]},500,`));
    const summaryFile = join(home, 'step-summary.md');
    const run = await runInProcess(['refund', '--file', 'refunds.csv', '--yes', '--report', 'refunds.xml'], {
      home,
      env: { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: home, GITHUB_STEP_SUMMARY: summaryFile },
    });
    expect(run.code, run.stderr).toBe(6);
    expect(run.stderr).toMatch(
      /^::error file=refunds\.csv,line=3,title=einvoice%3A failed::row 3[^\n]*more than the amount/m,
    );
    // The summary promises no retry of a refusal as it stands.
    expect(run.stderr).toMatch(/ {2}failed +1 {2}\(a rerun sends them again; fix a refusal first\)/);
    const summary = readFileSync(summaryFile, 'utf8');
    expect(summary).toContain('| refunded | 2 |');
    expect(summary).toContain('| failed | 1 |');
    const junit = readFileSync(join(home, 'refunds.xml'), 'utf8');
    expect(junit).toMatch(/<testsuite [^>]*tests="3"[^>]*failures="1"/);
    // The suite is named by the command that sent the refunds.
    expect(junit).toContain('<testsuite name="einvoice refund --file refunds.csv" ');
    expect(junit).toContain('more than the amount');
    // Named by the invoice it refunds, as --mark-refunded takes it.
    expect(junit).toContain(`name="row 3 (invoice ${numbers[1]})"`);
    expect((await sandbox.api.invoice(numbers[0] as string))?.status).toBe('REFUNDED');
    expect((await sandbox.api.invoice(numbers[1] as string))?.status).toBe('PAID');
  });

  it("tells its summary in a refund's words, without the rows of invoices (no duplicates in file)", async () => {
    const home = homeFor(sandbox);
    const { csv } = await paidInvoicesSheet(sandbox.api, 2);
    writeFileSync(join(home, 'refunds.csv'), csv);

    const run = await runRefund(home, ['--file', 'refunds.csv', '--yes']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^ {2}refunded +2$/m);
    expect(run.stderr).not.toContain('duplicates');

    const rerun = await runRefund(home, ['--file', 'refunds.csv', '--dry-run', '--json']);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toMatch(/^ {2}refunded by an earlier run +2$/m);
    expect(rerun.stderr).not.toContain('created');
    const { summary } = JSON.parse(rerun.stdout) as JsonReport;
    expect(summary).toMatchObject({ refundedEarlier: 2 });
    // In a refund's words: no count of invoices, and no businessReference, which a refund has not.
    for (const key of ['duplicatesInFile', 'created', 'createdEarlier', 'alreadyExisted']) {
      expect(summary).not.toHaveProperty(key);
    }
    const { records } = JSON.parse(rerun.stdout) as JsonReport;
    expect(records[0]).not.toHaveProperty('businessReference');
  });

  it("holds back a refund edited after an earlier run made it, and says so in a refund's words", async () => {
    const home = homeFor(sandbox);
    const { csv, numbers } = await paidInvoicesSheet(sandbox.api, 2);
    writeFileSync(join(home, 'refunds.csv'), csv);
    expect((await runRefund(home, ['--file', 'refunds.csv', '--yes'])).code).toBe(0);
    const edited = csv.replace(`${numbers[1]},10.50,Returned after the sale`, `${numbers[1]},10.50,Damaged in transit`);
    writeFileSync(join(home, 'refunds.csv'), edited);

    const rerun = await runRefund(home, ['--file', 'refunds.csv', '--yes', '--json']);
    expect(rerun.code, rerun.stderr).toBe(6);
    const { records } = JSON.parse(rerun.stdout) as JsonReport;
    expect(records[1]).toMatchObject({
      status: 'changed',
      invoiceNumber: numbers[1],
      error: 'edited after an earlier run made it; not sent again',
    });
    expect(rerun.stderr).toContain('1 of 2 refunds was edited after an earlier run sent it');
  });

  it('names a bad amount in row 3 and a repeated invoice in row 5 by row and column; nothing is sent', async () => {
    const home = homeFor(sandbox);
    const { numbers } = await paidInvoicesSheet(sandbox.api, 3);
    const sheet = [
      'invoiceNumber,amount,reason,orderReferenceNumber',
      `${numbers[0]},10,Returned,1`,
      `${numbers[1]},ten,Returned,2`,
      `${numbers[2]},10,Returned,3`,
      `${numbers[0]},5,Returned again,4`,
    ].join('\n');
    writeFileSync(join(home, 'bad.csv'), sheet);
    const result = await runRefund(home, ['--file', 'bad.csv', '--yes']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('2 of 4 records are invalid; nothing was sent.');
    expect(result.stderr).toContain('  row 3, column amount (B): must be a number');
    expect(result.stderr).toContain('  row 5, column invoiceNumber (A): refunds the same invoice as row 2');
    for (const number of numbers) expect((await sandbox.api.invoice(number))?.status).toBe('PAID');
  });

  it('lists a refund an earlier run sent and never heard back about by its invoice, as a killed run leaves it', async () => {
    const home = homeFor(sandbox);
    const { csv, numbers } = await paidInvoicesSheet(sandbox.api, 1);
    writeFileSync(join(home, 'refunds.csv'), csv);
    const first = await runRefund(home, ['--file', 'refunds.csv', '--yes', '--journal', 'refunds.journal.ndjson']);
    expect(first.code, first.stderr).toBe(0);
    // What a kill -9 between the request and its answer leaves: the `sent` entry, and no outcome after it.
    const journal = join(home, 'refunds.journal.ndjson');
    const kept = readFileSync(journal, 'utf8')
      .split('\n')
      .filter((line) => !line.startsWith('{"type":"created"'));
    writeFileSync(journal, kept.join('\n'));
    const rerun = await runRefund(home, ['--file', 'refunds.csv', '--yes', '--journal', 'refunds.journal.ndjson']);
    expect(rerun.code).toBe(6);
    expect(rerun.stderr).toContain(
      `row 2 (invoice ${numbers[0]}): uncertain: sent by an earlier run that ended before its answer came`,
    );
  });

  it('refuses a sheet said to be in another encoding than its own, telling no count or total first', async () => {
    const home = homeFor(sandbox);
    const { invoiceNumber, orderReferenceNumber } = await sandbox.api.createPaidInvoice({ amount: 100 });
    // UTF-8 text said to be Windows-1256: every record reads, as text that is not what the merchant wrote.
    const csv = `invoiceNumber,amount,reason,orderReferenceNumber\r\n${invoiceNumber},10.00,مرتجع,${orderReferenceNumber}\r\n`;
    writeFileSync(join(home, 'refunds.csv'), csv);
    const result = await runRefund(home, ['--file', 'refunds.csv', '--yes', '--encoding', 'windows-1256']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is UTF-8 text, not Windows-1256');
    expect(result.stderr).toContain('nothing was sent');
    expect(result.stderr).not.toContain('to send,');
    expect((await sandbox.api.invoice(invoiceNumber))?.status).toBe('PAID');
  });

  it('refuses to send when the count or total differs from what the run pins, and without --yes off a terminal', async () => {
    const home = homeFor(sandbox);
    const { csv, numbers } = await paidInvoicesSheet(sandbox.api, 2);
    writeFileSync(join(home, 'refunds.csv'), csv);
    const pinned = await runRefund(home, [
      ...['--file', 'refunds.csv', '--yes'],
      ...['--expect-count', '3'],
      ...['--expect-total', '21'],
    ]);
    expect(pinned.code).toBe(2);
    expect(pinned.stderr).toContain('--expect-count: is 3, the file holds 2 refunds');
    expect(pinned.stderr).not.toContain('--expect-total:');
    const wrongTotal = await runRefund(home, ['--file', 'refunds.csv', '--yes', '--expect-total', '20']);
    expect(wrongTotal.code).toBe(2);
    expect(wrongTotal.stderr).toContain("--expect-total: is 20.00, the file's refunds add up to 21.00");
    expect(wrongTotal.stderr).toContain('nothing was sent');
    // A total written as the run shows one, with thousands separators, is read as that amount.
    const grouped = await runRefund(home, ['--file', 'refunds.csv', '--yes', '--expect-total', '1,021.00']);
    expect(grouped.code).toBe(2);
    expect(grouped.stderr).toContain("--expect-total: is 1,021.00, the file's refunds add up to 21.00");
    // Refused after the plan, --json still accounts for every refund, as for invalid records.
    for (const refused of [
      ['--file', 'refunds.csv', '--yes', '--json', '--expect-count', '3'],
      ['--file', 'refunds.csv', '--json'],
    ]) {
      const result = await runRefund(home, refused);
      expect(result.code, refused.join(' ')).toBe(2);
      const report = JSON.parse(result.stdout) as JsonReport;
      expect(report.records.map((record) => record.status)).toEqual(['not-sent', 'not-sent']);
    }
    const unasked = await runRefund(home, ['--file', 'refunds.csv']);
    expect(unasked.code).toBe(2);
    expect(unasked.stderr).toContain(
      'Refunds need confirmation, and this run cannot ask (no terminal, CI, or --no-input)',
    );
    for (const number of numbers) expect((await sandbox.api.invoice(number))?.status).toBe('PAID');

    const pins = ['--file', 'refunds.csv', '--yes', '--expect-count', '2', '--expect-total', '21.00'];
    const right = await runRefund(home, pins);
    expect(right.code, right.stderr).toBe(0);
    for (const number of numbers) expect((await sandbox.api.invoice(number))?.status).toBe('REFUNDED');
    // The pins hold the file, not what is left of it: the same command run again goes on, and sends nothing.
    const again = await runRefund(home, pins);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('0 refunds to send');
  });

  it('refuses the flags of one refund with a file of many, sending nothing', async () => {
    const home = homeFor(sandbox);
    const { csv, numbers } = await paidInvoicesSheet(sandbox.api, 1);
    writeFileSync(join(home, 'refunds.csv'), csv);
    const result = await runRefund(home, ['--file', 'refunds.csv', '--yes', '--amount', '1', '--order-ref', '2']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--amount, --order-ref apply only to the refund of one invoice; nothing was sent.');
    for (const number of numbers) expect((await sandbox.api.invoice(number))?.status).toBe('PAID');
  });

  it('reads NDJSON, with invoice numbers written as JSON numbers', async () => {
    const home = homeFor(sandbox);
    const { invoiceNumber, orderReferenceNumber } = await sandbox.api.createPaidInvoice({ amount: 100 });
    const line = { invoiceNumber: Number(invoiceNumber), amount: '12.25', reason: 'Late', orderReferenceNumber };
    writeFileSync(join(home, 'refunds.ndjson'), `${JSON.stringify(line)}\n`);
    const result = await runRefund(home, ['--file', 'refunds.ndjson', '--yes', '--report', 'report.csv']);
    expect(result.code, result.stderr).toBe(0);
    const [header, row] = readFileSync(join(home, 'report.csv'), 'utf8').split('\n');
    expect(header).toBe('record,line,status,invoiceNumber,error,warnings');
    expect(row).toBe(`1,1,refunded,${invoiceNumber},,`);
  });

  it('reads the worksheet --sheet names: an invoice number as a number or as text, an amount as a number, refunded exactly', async () => {
    const home = homeFor(sandbox);
    const paid = [
      await sandbox.api.createPaidInvoice({ amount: 100 }),
      await sandbox.api.createPaidInvoice({ amount: 100 }),
    ];
    const [first, second] = paid as [(typeof paid)[0], (typeof paid)[0]];
    await writeHandMadeWorkbook(join(home, 'refunds.xlsx'), {
      sheets: [
        { name: 'Notes', rows: [[{ inline: 'not read' }]] },
        {
          name: 'Refunds',
          rows: [
            refundHeader,
            // Typed into a General cell, Excel stores the invoice number as a number; into a text cell, as text.
            [
              { number: Number(first.invoiceNumber) },
              { number: 50.5 },
              { shared: 'مرتجع' },
              { number: Number(first.orderReferenceNumber) },
            ],
            [
              { inline: second.invoiceNumber },
              { number: '12.300000000000001' },
              { inline: 'Late' },
              { inline: second.orderReferenceNumber },
            ],
            [],
          ],
        },
      ],
    });
    const result = await runRefund(home, ['--file', 'refunds.xlsx', '--sheet', 'Refunds', '--yes', '--json']);

    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(report.records.map((record) => [record.invoiceNumber, record.status])).toEqual([
      [first.invoiceNumber, 'refunded'],
      [second.invoiceNumber, 'refunded'],
    ]);
    expect((await sandbox.api.invoice(first.invoiceNumber))?.refunds).toEqual([
      expect.objectContaining({ amount: 50.5, reason: 'مرتجع', orderReferenceNumber: first.orderReferenceNumber }),
    ]);
    expect((await sandbox.api.invoice(second.invoiceNumber))?.refunds).toEqual([
      expect.objectContaining({ amount: 12.3, reason: 'Late' }),
    ]);

    // Journaled as a sheet's rows are: the same workbook again sends no refund a second time.
    const rerun = await runRefund(home, ['--file', 'refunds.xlsx', '--sheet', 'Refunds', '--yes', '--json']);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect((JSON.parse(rerun.stdout) as JsonReport).summary).toMatchObject({ refunded: 0, refundedEarlier: 2 });
    expect((await sandbox.api.invoice(first.invoiceNumber))?.refunds).toHaveLength(1);
  });

  it('refuses a workbook with an error cell or a formula without its value, naming each cell; nothing is sent', async () => {
    const home = homeFor(sandbox);
    const paid = [];
    for (let index = 0; index < 3; index++) paid.push(await sandbox.api.createPaidInvoice({ amount: 100 }));
    const rows: HandCell[][] = paid.map(({ invoiceNumber, orderReferenceNumber }) => [
      { inline: invoiceNumber },
      { number: 10 },
      { inline: 'Returned' },
      { inline: orderReferenceNumber },
    ]);
    rows[1]![1] = { error: '#N/A' };
    rows[2]![1] = { formula: 'B2*2' };
    await writeHandMadeWorkbook(join(home, 'refunds.xlsx'), {
      sheets: [{ name: 'Sheet1', rows: [refundHeader, ...rows] }],
    });
    const result = await runRefund(home, ['--file', 'refunds.xlsx', '--yes']);

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('2 of 3 records are invalid; nothing was sent.');
    expect(result.stderr).toContain('row 3, column amount (Sheet1!B3): is the error #N/A');
    expect(result.stderr).toContain('row 4, column amount (Sheet1!B4): is a formula without its value');
    for (const { invoiceNumber } of paid) expect((await sandbox.api.invoice(invoiceNumber))?.status).toBe('PAID');
  });

  it('prints a template with the refund fields, whose example the built-in sandbox refunds as printed', async () => {
    const home = tempHome();
    const result = await runInProcess(['template', 'refunds'], { home });
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('invoiceNumber,amount,reason,orderReferenceNumber');
    writeFileSync(join(home, 'refunds.csv'), result.stdout);
    const refunded = await runInProcess(['refund', '--file', 'refunds.csv', '--yes', '--json'], { home });
    expect(refunded.code, refunded.stderr).toBe(0);
    const report = JSON.parse(refunded.stdout) as JsonReport;
    expect(report.records.map((record) => record.status)).toEqual(['refunded']);
  });
});

describe('refunds from a file against a failing service', () => {
  let faulty: TestSandbox;
  let proxy: Server;
  let proxyUrl: string;
  /** What each refund request of each invoice was answered, in order: a status, or `dropped`. */
  const answers = new Map<string, string[]>();

  beforeAll(async () => {
    faulty = await startTestSandbox({ faults: {}, seed: 7 });
    // Counts the refund requests of each invoice on their way to the sandbox, and what each was answered.
    proxy = createServer((req, res) => {
      const invoice = /\/invoices\/([^/]+)\/refund$/.exec(req.url ?? '')?.[1];
      const upstream = httpRequest(
        `${faulty.url}${req.url}`,
        { method: req.method, headers: { ...req.headers, host: new URL(faulty.url).host } },
        (reply) => {
          if (invoice) answers.set(invoice, [...(answers.get(invoice) ?? []), String(reply.statusCode)]);
          res.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(res);
        },
      );
      upstream.on('error', () => {
        if (invoice) answers.set(invoice, [...(answers.get(invoice) ?? []), 'dropped']);
        req.socket.destroy();
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  /** Sets the sandbox's injected faults, for the requests from now on. */
  const setFaults = (faults: Record<string, number>) =>
    fetch(`${faulty.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ faults, seed: 7 }),
    });
  afterEach(() => setFaults({}));
  afterAll(async () => {
    await new Promise((resolve) => proxy.close(resolve));
    await faulty.close();
  });

  it('never sends a refund again after a request the service may have carried out; reruns list what is not done', async () => {
    const { csv, numbers } = await paidInvoicesSheet(faulty.api, 20);
    const home = tempHome();
    writeProfile(home, localProfile(proxyUrl, faulty.token));
    writeFileSync(join(home, 'refunds.csv'), csv);
    await setFaults({ 'drop-after-commit': 0.2, '500': 0.2, '503': 0.2, '429': 0.2 });

    let last: JsonReport | undefined;
    for (let run = 0; run < 3; run++) {
      const result = await runRefund(home, ['--file', 'refunds.csv', '--yes', '--json', '--retries', '3']);
      expect([0, 6], result.stderr).toContain(result.code);
      last = JSON.parse(result.stdout) as JsonReport;
    }
    // Only a 429 says the service took nothing: every other answer, or none, is the last request of its invoice.
    for (const [invoice, seen] of answers) {
      expect(
        seen.slice(0, -1).every((answer) => answer === '429'),
        `${invoice}: ${seen.join(', ')}`,
      ).toBe(true);
    }
    const byInvoice = new Map(last?.records.map((record) => [String(record.invoiceNumber), record]));
    for (const number of numbers) {
      const record = byInvoice.get(number);
      const refunded = (await faulty.api.invoice(number))?.status === 'REFUNDED';
      // A refund done is known as done, or as uncertain (its answer was lost); one not done is failed or uncertain.
      if (refunded) expect(['refunded', 'refunded-earlier', 'uncertain']).toContain(record?.status);
      else expect(['failed', 'uncertain']).toContain(record?.status);
    }
    expect(last?.records.some((record) => record.status === 'uncertain')).toBe(true);
  });

  it('sends an uncertain refund again only after the merchant says it was not made; --mark-refunded settles it', async () => {
    const { csv, numbers } = await paidInvoicesSheet(faulty.api, 2);
    const home = tempHome();
    writeProfile(home, localProfile(proxyUrl, faulty.token));
    writeFileSync(join(home, 'refunds.csv'), csv);
    await setFaults({ 'drop-after-commit': 1 });
    const first = await runRefund(home, ['--file', 'refunds.csv', '--yes']);
    expect(first.code).toBe(6);
    expect(first.stderr).toContain('2 refunds may have been made: their outcome is unknown');
    // Listed with the invoice each refunds, which --mark-refunded and --mark-not-refunded take.
    expect(first.stderr).toContain(`(invoice ${numbers[0]}): uncertain:`);
    expect(first.stderr).toContain('--mark-refunded INVOICE');
    await setFaults({});
    const [done, notDone] = numbers as [string, string];
    const sentBefore = [...(answers.get(done) ?? []), ...(answers.get(notDone) ?? [])].length;
    const rerun = await runRefund(home, ['--file', 'refunds.csv', '--yes']);
    expect(rerun.code).toBe(6);
    expect([...(answers.get(done) ?? []), ...(answers.get(notDone) ?? [])]).toHaveLength(sentBefore);

    // A number the journal holds no sent record of settles nothing, and is said so; the uncertain stay held.
    const unknown = await runRefund(home, ['--file', 'refunds.csv', '--yes', '--mark-refunded', '999999']);
    expect(unknown.code).toBe(6);
    expect(unknown.stderr).toContain(
      '999999: the journal holds no refund of that invoice that was sent; nothing to settle there.',
    );

    const settled = await runRefund(home, [
      ...['--file', 'refunds.csv', '--yes', '--json'],
      ...['--mark-refunded', done, '--mark-not-refunded', notDone],
    ]);
    expect(settled.stderr).toContain('Marked in the journal, as you said: 1 refunded, 1 not refunded (sent again).');
    // The sandbox did refund both (the answers were dropped after commit): the one said not made is refused now.
    const report = JSON.parse(settled.stdout) as JsonReport;
    const status = (number: string) => report.records.find((record) => record.invoiceNumber === number)?.status;
    expect(status(done)).toBe('refunded-earlier');
    expect(answers.get(done)).toHaveLength(1);
    expect(answers.get(notDone)).toHaveLength(2);
    // The merchant's word is in the journal: a later run knows it without being told again.
    const later = await runRefund(home, ['--file', 'refunds.csv', '--yes', '--json']);
    const laterReport = JSON.parse(later.stdout) as JsonReport;
    expect(laterReport.records.find((record) => record.invoiceNumber === done)?.status).toBe('refunded-earlier');
    expect(answers.get(done)).toHaveLength(1);
    // The same marks left in a workflow change nothing.
    const again = await runRefund(home, ['--file', 'refunds.csv', '--yes', '--mark-refunded', done]);
    expect(again.stderr).not.toContain('nothing to settle');
    expect(answers.get(done)).toHaveLength(1);
    // The one said not made is refused each time a rerun sends it (the sandbox had made it): the merchant's later
    // word that it was made is kept, and it is never requested again.
    const requested = answers.get(notDone)?.length;
    const corrected = await runRefund(home, ['--file', 'refunds.csv', '--yes', '--mark-refunded', notDone]);
    expect(corrected.code, corrected.stderr).toBe(0);
    expect(corrected.stderr).toContain('Marked in the journal, as you said: 1 refunded.');
    const after = await runRefund(home, ['--file', 'refunds.csv', '--yes']);
    expect(after.code, after.stderr).toBe(0);
    expect(answers.get(notDone)).toHaveLength(requested ?? 0);
  });
});

describe('refund of one invoice', () => {
  it('refuses the flags of a file of many', async () => {
    const home = homeFor(sandbox);
    const one = ['1000001', '--amount', '1', '--reason', 'x', '--order-ref', '1'];
    const result = await runRefund(home, [...one, '--report', 'r.csv']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--report applies only to a --file of many refunds; nothing was sent.');
  });
});
