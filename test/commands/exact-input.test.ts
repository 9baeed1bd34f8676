import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { received, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runInProcess } from '../helpers/in-process.js';
import { homeFor } from '../helpers/profile.js';

// One rule, the same answer through flags, a JSON file and the records of a bulk file: money exact or refused, text
// without control characters, enums in any case, dates in range, mobile numbers normalised. Refused input sends
// nothing and exits 2.

let sandbox: TestSandbox;
let home: string;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  home = homeFor(sandbox);
});
afterAll(() => sandbox.close());

const base = {
  customer: { name: 'Amr Hassan', mobile: '+201012345678' },
  amount: 10,
  sendingDate: '2030-03-01',
  expiryDate: '2030-03-31T23:59:59.999Z',
  releaseDate: '2030-03-01T00:00:00.000Z',
  note: 'Order 1043',
};

const baseFlags = [
  ...['single', '--customer-name', 'Amr Hassan', '--customer-mobile', '+201012345678', '--note', 'Order 1043'],
  ...['--sending-date', '2030-03-01', '--release-date', '2030-03-01', '--expiry-date', '2030-03-31'],
];

/** The three ways in: flags, a JSON file of one invoice, and an NDJSON file of records; each given raw JSON text. */
const ways = {
  flags: (flag: string, value: string) =>
    runInProcess(['create', ...baseFlags, '--amount', '10', flag, value], { home }),
  file: (json: string) => {
    const path = join(home, `invoice-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(path, json);
    return runInProcess(['create', 'single', '--file', path], { home });
  },
  bulk: (json: string) => {
    const path = join(home, `records-${Math.random().toString(36).slice(2)}.ndjson`);
    writeFileSync(path, `${JSON.stringify(base)}\n${json}\n`);
    return runInProcess(['create', 'single', '--file', path, '--yes'], { home });
  },
};

/** `base` as JSON text with `field` set to the raw JSON text `value` (a number exactly as written). */
const withRaw = (field: string, value: string) => JSON.stringify({ ...base, [field]: '@@' }).replace('"@@"', value);

describe('money is exact or refused, the same way in', () => {
  it.each([
    [
      '90071992547409.93',
      'amount: 90071992547409.93 cannot be sent exactly (a JSON number would carry 90071992547409.94)',
    ],
    ['1e308', 'amount: must be at most 9,999,999,999,999.99'],
    ['12345678901234567.89', 'amount: 12345678901234567.89 cannot be sent exactly'],
  ])('amount %s is refused with exit 2 and nothing sent', async (amount, message) => {
    const before = (await received(sandbox)).count;
    const flags = await runInProcess(['create', ...baseFlags, '--amount', amount], { home });
    const file = await ways.file(withRaw('amount', amount));
    const bulk = await ways.bulk(withRaw('amount', amount));
    for (const result of [flags, file, bulk]) {
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(message.replace('amount: ', ''));
      expect(result.stderr).toMatch(/amount( \(--amount\))?: /);
    }
    expect(bulk.stderr).toContain('record 2 (line 2): amount');
    expect((await received(sandbox)).count).toBe(before);
  });

  it('an amount in quotes in a file is named as text, with exit 2 and nothing sent', async () => {
    const before = (await received(sandbox)).count;
    const file = await ways.file(withRaw('amount', '"12.50"'));
    const bulk = await ways.bulk(withRaw('amount', '"12.50"'));
    for (const result of [file, bulk]) {
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain('must be a number, not text ("12.50")');
    }
    // The amount came from the file: the message names the field, not a flag the merchant never gave.
    expect(file.stderr).toContain('\n  amount: must be a number');
    expect(bulk.stderr).toContain('record 2 (line 2): amount: must be a number');
    expect((await received(sandbox)).count).toBe(before);
  });

  it('an amount of 15 significant digits is sent exactly as typed', async () => {
    const result = await runInProcess(['create', ...baseFlags, '--amount', '9999999999999.99'], { home });
    expect(result.code, result.stderr).toBe(0);
    expect(((await received(sandbox)).last?.request as { amount: number }).amount).toBe(9_999_999_999_999.99);
  });
});

describe('text, enums, dates and mobile numbers, the same way in', () => {
  it.each([
    [
      '--customer-name',
      'customer',
      'Amr\u001b[2J',
      'customer.name',
      'must not contain control characters (found U+001B)',
    ],
    [
      '--note',
      'note',
      'Pay \u202eKCOL',
      'note',
      'must not contain bidirectional override or isolate characters (found U+202E)',
    ],
    [
      '--customer-email',
      'customer.email',
      'amr\u0000@example.com',
      'customer.email',
      'control characters (found U+0000)',
    ],
    [
      '--customer-email',
      'customer.email',
      'amr@\u202eelpmaxe.com',
      'customer.email',
      'must not contain bidirectional override or isolate characters (found U+202E)',
    ],
    [
      '--customer-email',
      'customer.email',
      'amr@example.com\u2028',
      'customer.email',
      'must not contain control characters (found a line break, U+2028)',
    ],
    ['--sending-date', 'sendingDate', '2026-02-30', 'sendingDate', 'February 2026 has no 30th day'],
    ['--sending-date', 'sendingDate', '1926-02-03', 'sendingDate', 'must be from 2000-01-01 to 2100-12-31'],
  ])('%s %j is refused naming the field', async (flag, field, value, path, message) => {
    const json =
      field === 'customer'
        ? JSON.stringify({ ...base, customer: { ...base.customer, name: value } })
        : field === 'customer.email'
          ? JSON.stringify({ ...base, customer: { ...base.customer, email: value } })
          : JSON.stringify({ ...base, [field]: value });
    const before = (await received(sandbox)).count;
    for (const result of [await ways.flags(flag, value), await ways.file(json), await ways.bulk(json)]) {
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(path);
      expect(result.stderr).toContain(message);
      // The refused character itself never reaches the terminal.
      expect([...result.stderr].some((char) => '\u0000\u001b\u202e\u2028'.includes(char))).toBe(false);
    }
    expect((await received(sandbox)).count).toBe(before);
  });

  it('an e-mail that is no address is quoted in its warning with what cannot be seen shown', async () => {
    const result = await ways.flags('--customer-email', 'amr\u200b@shop');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      'customer.email (--customer-email): "amr\\u200B@shop" is not an e-mail address (the invoice notifies by SMS); sent as given.',
    );
  });

  it('an enum in any case and a grouped mobile number are sent as documented', async () => {
    const result = await runInProcess(
      [
        'create',
        ...baseFlags.map((arg) => (arg === '+201012345678' ? '+20 (101) 234-5678' : arg)),
        ...['--amount', '10', '--method', 'sms', '--lang', 'AR-EG', '--payment-type', 'push_to_service_pay'],
      ],
      { home },
    );
    expect(result.code, result.stderr).toBe(0);
    expect((await received(sandbox)).last?.request).toMatchObject({
      customer: { mobile: '+201012345678' },
      communicationMethod: 'SMS',
      communicationLang: 'ar-eg',
      paymentType: 'PUSH_TO_SERVICE_PAY',
    });
  });
});
