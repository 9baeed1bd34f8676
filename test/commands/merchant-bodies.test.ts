import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { received, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runInProcess } from '../helpers/in-process.js';
import { homeFor } from '../helpers/profile.js';

// Request bodies from merchants' own code: every problem of one body said in one run, each named by where its
// value came from; fields the spec does not list dropped on request; contact values the spec gives no format sent
// as given, with what to look at.

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
afterEach(() => sandbox.api.reset(false));

const body = (extra: Record<string, unknown> = {}) => ({
  customer: { name: 'Mona Adel', mobile: '+201001234567' },
  amount: 20,
  sendingDate: '2030-01-01',
  releaseDate: '2030-01-01T00:00:00.000Z',
  expiryDate: '2030-02-01T23:59:59.999Z',
  note: 'Order 7',
  communicationMethod: 'SMS',
  paymentType: 'PUSH_TO_CUSTOMER',
  ...extra,
});

const flags = [
  ...['--customer-name', 'Amr', '--customer-mobile', '+201012345678', '--amount', '10', '--note', 'x'],
  ...['--sending-date', '2030-01-01', '--release-date', '2030-01-01', '--expiry-date', '2030-02-01', '--yes'],
];

describe('every problem of one body in one run', () => {
  it('names a bad mobile, an unknown language, an unknown field and the amount that differs from its items', async () => {
    const home = homeFor(sandbox);
    writeFileSync(
      join(home, 'body.json'),
      JSON.stringify(
        body({
          customer: { name: 'Mona Adel', mobile: 'call me' },
          communicationLang: 'fr-fr',
          orderId: 'A-17',
          amount: 25,
          items: [{ itemCode: 'A', purchasedQuantity: 2, price: 10, nameEn: 'Mug', nameAr: 'كوب' }],
        }),
      ),
    );
    const result = await runInProcess(['create', 'single', '--file', 'body.json'], { home });

    expect(result.code).toBe(2);
    const listed = result.stderr.split('\n').filter((line) => line.startsWith('  '));
    expect(listed).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^ {2}customer\.mobile: must be a mobile number/),
        expect.stringMatching(/^ {2}communicationLang: must be one of en-gb, ar-eg/),
        expect.stringMatching(/^ {2}orderId: is not a known field/),
        // Named as the file's, with the way out for a file: never "Drop --amount".
        '  amount (the amount in the file): is 25.00, the items add up to 20.00',
      ]),
    );
    expect(listed).toHaveLength(4);
    expect(result.stderr).toContain("Remove the amount from --file body.json to use the items' total");
    expect(result.stderr).not.toContain('Drop --amount');
    expect((await received(sandbox)).count).toBe(0);
  });

  it('names --amount when the flag gave the amount', async () => {
    const home = homeFor(sandbox);
    const withoutYes = flags.filter((flag) => flag !== '--yes');
    const result = await runInProcess(['create', 'single', ...withoutYes, '--item', 'code=A,qty=1,price=5,en=a,ar=b'], {
      home: home,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('amount (--amount): is 10.00, the items add up to 5.00');
    expect(result.stderr).toContain('Drop --amount to use the items total');
  });
});

describe('--drop-unknown-fields', () => {
  it('without it, an unknown field stays an error with its "did you mean"', async () => {
    const home = homeFor(sandbox);
    writeFileSync(join(home, 'body.json'), JSON.stringify(body({ notee: 'x' })));
    const result = await runInProcess(['create', 'single', '--file', 'body.json', '--yes'], { home });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('notee: is not a known field; did you mean note?');
  });

  it('creates one invoice without the fields the spec does not list, naming each once', async () => {
    const home = homeFor(sandbox);
    const extra = body({ orderId: 'A-17', customer: { name: 'Mona Adel', mobile: '+201001234567', age: 40 } });
    writeFileSync(join(home, 'body.json'), JSON.stringify(extra));
    const result = await runInProcess(['create', 'single', '--file', 'body.json', '--yes', '--drop-unknown-fields'], {
      home: home,
    });

    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Dropped 2 fields the spec does not list: orderId, customer.age.');
    expect(result.stderr.split('orderId')).toHaveLength(2);
    const sent = (await received(sandbox)).last?.request as Record<string, unknown>;
    expect(sent).not.toHaveProperty('orderId');
    expect(sent.customer).toStrictEqual({ name: 'Mona Adel', mobile: '+201001234567' });
  });

  it('names each dropped field of a bulk run once, with the number of records it was dropped from', async () => {
    const home = homeFor(sandbox);
    const records = [1, 2, 3].map((n) =>
      body({
        businessReference: `B-${n}`,
        ...(n < 3 ? { orderId: `A-${n}` } : {}),
        items: [{ itemCode: 'A', purchasedQuantity: 2, price: 10, nameEn: 'Mug', nameAr: 'كوب', sku: `S${n}` }],
      }),
    );
    writeFileSync(join(home, 'invoices.ndjson'), records.map((record) => JSON.stringify(record)).join('\n'));
    const result = await runInProcess(
      ['create', 'single', '--file', 'invoices.ndjson', '--yes', '--drop-unknown-fields'],
      { home },
    );

    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      'Dropped fields the spec does not list: orderId (2 records), items[n].sku (3 records).',
    );
    const sent = (await sandbox.api.invoices()).map((invoice) => JSON.stringify(invoice.request));
    expect(sent).toHaveLength(3);
    for (const request of sent) expect(request).not.toMatch(/orderId|sku/);
  });
});

describe('contact values the spec gives no format', () => {
  it('--customer-email 20231187: created with a warning under --method SMS, refused under --method EMAIL', async () => {
    const home = homeFor(sandbox);
    const sms = await runInProcess(['create', 'single', ...flags, '--customer-email', '20231187', '--method', 'SMS'], {
      home: home,
    });
    expect(sms.code, sms.stderr).toBe(0);
    expect(sms.stderr).toContain(
      'customer.email (--customer-email): 20231187 is not an e-mail address (the invoice notifies by SMS); sent as given.',
    );
    expect(((await received(sandbox)).last?.request as { customer: { email: string } }).customer.email).toBe(
      '20231187',
    );

    const email = await runInProcess(
      ['create', 'single', ...flags, '--customer-email', '20231187', '--method', 'EMAIL'],
      { home },
    );
    expect(email.code).toBe(2);
    expect(email.stderr).toContain(
      'customer.email (--customer-email): must be an e-mail address when communicationMethod is EMAIL or BOTH',
    );
    expect((await received(sandbox)).count).toBe(1);
  });

  it('warns of mobiles a spreadsheet mangled by row and column, counting records and values apart', async () => {
    const home = homeFor(sandbox);
    const sheet = [
      'businessReference,customer.name,customer.mobile,customer.email,amount,sendingDate,releaseDate,expiryDate,note',
      'M-1,Amr,1012345678,20231187,10,2030-01-01,2030-01-01,2030-02-01,x',
      'M-2,Mona,+201001234567,,10,2030-01-01,2030-01-01,2030-02-01,x',
    ].join('\r\n');
    writeFileSync(join(home, 'sheet.csv'), sheet);
    const result = await runInProcess(['create', 'single', '--file', 'sheet.csv', '--yes'], { home });

    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('1 record has 2 warnings to look at:');
    expect(result.stderr).toContain(
      '  row 2, column customer.mobile (C): 1012345678 looks like a number whose leading 0 a spreadsheet dropped (01012345678?)',
    );
    expect(result.stderr).toContain('  row 2, column customer.email (D): 20231187 is not an e-mail address');
    expect((await received(sandbox)).count).toBe(2);
  });

  it('refuses a mobile a spreadsheet wrote in scientific notation, saying so by row and column', async () => {
    const home = homeFor(sandbox);
    const sheet = [
      'customer.name,customer.mobile,amount,sendingDate,releaseDate,expiryDate,note',
      'Amr,2.01012E+11,10,2030-01-01,2030-01-01,2030-02-01,x',
    ].join('\r\n');
    writeFileSync(join(home, 'sheet.csv'), sheet);
    const result = await runInProcess(['create', 'single', '--file', 'sheet.csv', '--yes'], { home });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'row 2, column customer.mobile (B): is 2.01012E+11, a number a spreadsheet wrote in scientific notation',
    );
    expect((await received(sandbox)).count).toBe(0);
  });
});

describe('the currency of the profile', () => {
  it('is shown beside amounts (the stats table, the created line) and never sent', async () => {
    const home = homeFor(sandbox, { currency: 'egp' });
    const created = await runInProcess(['create', 'single', ...flags], { home });
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toMatch(/Created single invoice \d+ for 10\.00 EGP \(local\)\./);
    expect(JSON.stringify((await received(sandbox)).last?.request)).not.toMatch(/egp/i);

    const stats = await runInProcess(['stats'], { home });
    expect(stats.code, stats.stderr).toBe(0);
    expect(stats.stdout).toMatch(/Invoices +Count +Amount EGP +Share of amount/);
    const json = await runInProcess(['stats', '--json'], { home });
    expect(json.stdout).not.toMatch(/egp/i);

    const without = await runInProcess(['stats'], { home: homeFor(sandbox) });
    expect(without.stdout).toMatch(/Count +Amount +Share/);
  });
});
