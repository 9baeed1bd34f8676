import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { received, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runInProcess } from '../helpers/in-process.js';
import { homeFor } from '../helpers/profile.js';

// `einvoice create` from a JSON file, from stdin, with profile defaults and with flags on top: the body the
// sandbox received must be exactly the merge of defaults < file < flags, normalised to the wire shapes.

let sandbox: TestSandbox;
let home: string;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  // The bodies below are written in UTC's days, whatever zone the suite runs in.
  home = homeFor(sandbox, { timeZone: 'UTC' });
});
afterAll(() => sandbox.close());

/** A single invoice as a merchant may write it: sample shapes ("false", numeric taxes), bare dates, no amount. */
const singleFile = {
  customer: { name: 'Mona Adel', mobile: '+201001234567' },
  sendingDate: '2030-05-01',
  releaseDate: '2030-05-01',
  expiryDate: '2030-05-31',
  note: 'From a file',
  alertMerchantUponExpiry: 'false',
  taxes: 14,
  items: [{ itemCode: 'MUG', purchasedQuantity: 3, price: 0.1, nameEn: 'Mug', nameAr: 'كوب' }],
};

const singleFileBody = {
  customer: { name: 'Mona Adel', mobile: '+201001234567' },
  amount: 0.3,
  sendingDate: '2030-05-01',
  expiryDate: '2030-05-31T23:59:59.999Z',
  releaseDate: '2030-05-01T00:00:00.000Z',
  note: 'From a file',
  alertMerchantUponExpiry: false,
  items: [{ itemCode: 'MUG', purchasedQuantity: 3, price: 0.1, nameEn: 'Mug', nameAr: 'كوب' }],
  taxes: '14',
};

const recurringFile = {
  cycleType: 'MONTH',
  cycleValue: 1,
  customer: { name: 'Karim Nabil', email: 'karim@example.com', mobile: '+201223334445' },
  amount: 150,
  sendingDate: '2030-06-01',
  expiryDate: '2030-06-30T21:59:59.000Z',
  releaseDate: '2030-06-01T08:00:00+02:00',
  note: 'Gym membership',
  communicationMethod: 'EMAIL',
  discount: { value: 0, type: 'FLAT' },
};

const recurringFileBody = { ...recurringFile, releaseDate: '2030-06-01T06:00:00.000Z' };

function writeJson(name: string, value: unknown): string {
  const path = join(home, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return path;
}

describe('create from a file', () => {
  it('creates a single invoice from --file, normalising its dates and sample shapes', async () => {
    writeJson('single.json', singleFile);
    const result = await runInProcess(['create', 'single', '--file', 'single.json'], { home });
    const { last } = await received(sandbox);

    expect(result.code).toBe(0);
    expect(last?.request).toStrictEqual(singleFileBody);
    expect(result.stdout).toBe(`${last?.invoiceNumber}\n`);
    expect(result.stderr).toContain(`✔ Created single invoice ${last?.invoiceNumber} for 0.30 (local).\n`);
  });

  it('reads the invoice from stdin with --file -', async () => {
    const result = await runInProcess(['create', 'recurring', '--file', '-'], {
      home,
      input: JSON.stringify(recurringFile),
    });
    const { last } = await received(sandbox);

    expect(result.code).toBe(0);
    expect(last?.kind).toBe('recurring');
    expect(last?.request).toStrictEqual(recurringFileBody);
  });

  it('lets flags override the file: the customer field by field, the items replaced', async () => {
    writeJson('base.json', singleFile);
    const result = await runInProcess(
      [
        'create',
        ...['single', '--file', 'base.json', '--customer-mobile', '+201119998887'],
        ...['--customer-email', 'mona@example.com', '--method', 'EMAIL', '--note', 'Overridden', '--taxes', '0'],
        ...['--item', 'code=TEA,qty=2,price=5,en=Tea,ar=شاي'],
      ],
      { home },
    );

    expect(result.code).toBe(0);
    expect((await received(sandbox)).last?.request).toStrictEqual({
      customer: { name: 'Mona Adel', email: 'mona@example.com', mobile: '+201119998887' },
      amount: 10,
      sendingDate: '2030-05-01',
      expiryDate: '2030-05-31T23:59:59.999Z',
      releaseDate: '2030-05-01T00:00:00.000Z',
      note: 'Overridden',
      communicationMethod: 'EMAIL',
      alertMerchantUponExpiry: false,
      items: [{ itemCode: 'TEA', purchasedQuantity: 2, price: 5, nameEn: 'Tea', nameAr: 'شاي' }],
      taxes: '0',
    });
  });

  it('--save writes the final request, and --file of that file creates the same body', async () => {
    writeJson('draft.json', singleFile);
    const saved = await runInProcess(
      ['create', 'single', '--file', 'draft.json', '--note', 'Saved', '--save', 'saved.json'],
      { home },
    );
    const first = await received(sandbox);
    expect(saved.code).toBe(0);
    expect(saved.stderr).toContain('Saved the request to saved.json.');
    expect(JSON.parse(readFileSync(join(home, 'saved.json'), 'utf8'))).toStrictEqual(first.last?.request);

    const again = await runInProcess(['create', 'single', '--file', 'saved.json'], { home });
    const second = await received(sandbox);
    expect(again.code).toBe(0);
    expect(second.count).toBe(first.count + 1);
    expect(second.last?.invoiceNumber).not.toBe(first.last?.invoiceNumber);
    expect(second.last?.request).toStrictEqual({ ...singleFileBody, note: 'Saved' });
    expect(second.last?.request).toStrictEqual(first.last?.request);
  });

  it('--save into a folder that does not exist is refused in words, nothing sent', async () => {
    writeJson('draft.json', singleFile);
    const before = await received(sandbox);
    const result = await runInProcess(['create', 'single', '--file', 'draft.json', '--save', 'nodir/saved.json'], {
      home,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '✖ Cannot write --save nodir/saved.json: its folder does not exist; nothing was sent.',
    );
    expect(result.stderr).not.toContain('ENOENT');
    expect((await received(sandbox)).count).toBe(before.count);
  });
});

describe('profile defaults', () => {
  const defaults = {
    communicationLang: 'ar-eg',
    communicationMethod: 'NONE',
    paymentType: 'PUSH_TO_SERVICE_PAY',
    preferredPaymentMethod: 'PayAtService',
    alertMerchantUponExpiry: true,
    taxes: 5,
  };

  it('fills what neither the file nor the flags give, and yields to both', async () => {
    const withDefaults = homeFor(sandbox, { defaults, timeZone: 'UTC' });
    writeFileSync(join(withDefaults, 'invoice.json'), JSON.stringify({ ...singleFile, communicationMethod: 'SMS' }));
    const result = await runInProcess(['create', 'single', '--file', 'invoice.json', '--lang', 'en-gb'], {
      home: withDefaults,
    });

    expect(result.code).toBe(0);
    expect((await received(sandbox)).last?.request).toStrictEqual({
      ...singleFileBody,
      communicationLang: 'en-gb',
      communicationMethod: 'SMS',
      paymentType: 'PUSH_TO_SERVICE_PAY',
      preferredPaymentMethod: 'PayAtService',
    });
  });

  it('applies to recurring invoices without the single-only paymentType', async () => {
    const withDefaults = homeFor(sandbox, { defaults, timeZone: 'UTC' });
    const { communicationMethod: _method, ...file } = recurringFile;
    const result = await runInProcess(['create', 'recurring', '--file', '-'], {
      home: withDefaults,
      input: JSON.stringify(file),
    });

    expect(result.code).toBe(0);
    const { communicationMethod: _sent, ...body } = recurringFileBody;
    expect((await received(sandbox)).last?.request).toStrictEqual({
      ...body,
      communicationLang: 'ar-eg',
      communicationMethod: 'NONE',
      alertMerchantUponExpiry: true,
      taxes: '5',
      preferredPaymentMethod: 'PayAtService',
    });
  });
});

describe('files that are refused before anything is sent', () => {
  it.each([
    ['a missing file', 'missing.json', undefined, 'Cannot read --file missing.json: no such file.'],
    ['a folder', '.', undefined, 'Cannot read --file .: it is a folder, not a file.'],
    ['a file that is not JSON', 'broken.json', '{"note": ', '--file broken.json is not valid JSON'],
    ['a JSON value that is not an object', 'number.json', '42', '--file number.json must hold one JSON object.'],
  ])('exits 2 for %s', async (_what, name, content, message) => {
    if (content !== undefined) writeJson(name, content);
    const before = await received(sandbox);
    const result = await runInProcess(['create', 'single', '--file', name], { home });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect((await received(sandbox)).count).toBe(before.count);
  });

  it('exits 2 for --save and --print-command with a file of many invoices', async () => {
    writeJson('many.json', [singleFile, { ...singleFile, note: 'Another' }]);
    const before = await received(sandbox);
    const result = await runInProcess(
      ['create', 'single', '--file', 'many.json', '--yes', '--save', 'out.json', '--print-command'],
      { home },
    );

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--save and --print-command apply only to one invoice; nothing was sent.');
    expect((await received(sandbox)).count).toBe(before.count);
  });

  it('exits 2 naming unknown fields (with the field a slip was meant to be) and fields of the other kind', async () => {
    writeJson('odd.json', {
      ...recurringFile,
      colour: 'red',
      sendingdate: '2030-01-01',
      paymentType: 'PUSH_TO_CUSTOMER',
      items: [{ itemCode: 'A', purchasedQuantity: 1, price: 150, nameEn: 'a', nameAr: 'أ', discount: { value: 1 } }],
    });
    const before = await received(sandbox);
    const result = await runInProcess(['create', 'recurring', '--file', 'odd.json'], { home });

    expect(result.code).toBe(2);
    const listed = result.stderr.split('\n').filter((line) => line.startsWith('  '));
    // Fields of the file are named as the file names them, not by flags never given; the amount that differs from
    // the items is said in the same run.
    expect(listed.sort()).toEqual([
      '  amount (the amount in the file): is 150.00, the items add up to 149.00',
      '  colour: is not a known field',
      '  items[0].discount: applies only to items of a single invoice; a recurring invoice takes one top-level discount',
      '  paymentType: applies only to single invoices',
      '  sendingdate: is not a known field; did you mean sendingDate?',
    ]);
    expect((await received(sandbox)).count).toBe(before.count);
  });
});
