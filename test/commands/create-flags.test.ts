import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { received, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runInProcess } from '../helpers/in-process.js';
import { homeFor } from '../helpers/profile.js';

// `einvoice create single|recurring` from flags alone, without a terminal, against a served sandbox: the body the
// sandbox received must be exactly the request the flags describe.

let sandbox: TestSandbox;
let home: string;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  // The bodies below are written in UTC's days, whatever zone the suite runs in.
  home = homeFor(sandbox, { timeZone: 'UTC' });
});
afterAll(() => sandbox.close());

const singleArgs = [
  'single',
  ...['--customer-name', 'Amr Hassan', '--customer-mobile', '+201012345678', '--customer-email', 'amr@example.com'],
  ...['--sending-date', '2030-03-01', '--expiry-date', '2030-03-31', '--release-date', '2030-03-01T09:30:00+02:00'],
  ...['--business-reference', 'INV-1043', '--note', 'Order 1043, blue shirts', '--lang', 'ar-eg', '--method', 'BOTH'],
  ...['--alert-on-expiry', '--payment-type', 'PUSH_TO_CUSTOMER', '--taxes', '14', '--preferred-payment-method', 'VALU'],
  ...['--item', 'code=SKU1,qty=2,price=10.50,en="Shirt, blue",ar=قميص,discount=1'],
  ...['--item', "code=SKU2,qty=3,price=0.10,en=Sock,ar='جورب'"],
];

/** The body `singleArgs` describe, in the order the CLI sends it; the amount is the items' total. */
const singleBody = {
  customer: { name: 'Amr Hassan', email: 'amr@example.com', mobile: '+201012345678' },
  amount: 20.3,
  sendingDate: '2030-03-01',
  expiryDate: '2030-03-31T23:59:59.999Z',
  releaseDate: '2030-03-01T07:30:00.000Z',
  businessReference: 'INV-1043',
  note: 'Order 1043, blue shirts',
  communicationLang: 'ar-eg',
  communicationMethod: 'BOTH',
  alertMerchantUponExpiry: true,
  items: [
    {
      itemCode: 'SKU1',
      purchasedQuantity: 2,
      price: 10.5,
      nameEn: 'Shirt, blue',
      nameAr: 'قميص',
      discount: { value: 1, type: 'FLAT' },
    },
    { itemCode: 'SKU2', purchasedQuantity: 3, price: 0.1, nameEn: 'Sock', nameAr: 'جورب' },
  ],
  paymentType: 'PUSH_TO_CUSTOMER',
  taxes: '14',
  preferredPaymentMethod: 'VALU',
};

const recurringArgs = [
  'recurring',
  ...['--cycle-type', 'WEEK', '--cycle-value', '2', '--discount-value', '10', '--discount-type', 'PERCENTAGE'],
  ...['--customer-name', 'Mona Adel', '--customer-mobile', '+201001234567', '--amount', '499.99'],
  ...['--sending-date', '2030-04-01', '--release-date', '2030-04-01', '--expiry-date', '2030-04-15T12:00:00Z'],
  ...['--note', 'Weekly plan', '--no-alert-on-expiry', '--taxes', '0', '--method', 'SMS', '--lang', 'en-gb'],
  ...['--preferred-payment-method', 'CARD', '--business-reference', 'PLAN-7'],
];

const recurringBody = {
  cycleType: 'WEEK',
  cycleValue: 2,
  customer: { name: 'Mona Adel', mobile: '+201001234567' },
  amount: 499.99,
  sendingDate: '2030-04-01',
  expiryDate: '2030-04-15T12:00:00.000Z',
  releaseDate: '2030-04-01T00:00:00.000Z',
  businessReference: 'PLAN-7',
  note: 'Weekly plan',
  communicationLang: 'en-gb',
  communicationMethod: 'SMS',
  alertMerchantUponExpiry: false,
  discount: { value: 10, type: 'PERCENTAGE' },
  taxes: '0',
  preferredPaymentMethod: 'CARD',
};

/** `args` without `flag` and its value. */
function without(args: string[], flag: string): string[] {
  const at = args.indexOf(flag);
  return at === -1 ? args : [...args.slice(0, at), ...args.slice(at + 2)];
}

describe('create from flags', () => {
  it('creates a single invoice with every field given as a flag', async () => {
    const before = await received(sandbox);
    const result = await runInProcess(['create', ...singleArgs], { home });
    const after = await received(sandbox);

    expect(result.code).toBe(0);
    expect(after.count).toBe(before.count + 1);
    expect(after.last?.kind).toBe('single');
    expect(after.last?.request).toStrictEqual(singleBody);
    expect(result.stdout).toBe(`${after.last?.invoiceNumber}\n`);
    expect(result.stderr).toContain(`✔ Created single invoice ${after.last?.invoiceNumber} for 20.30 (local).\n`);
    expect(result.stderr).toContain('Amount 20.30 is the total of the items.');
  });

  it('creates a recurring invoice with every field given as a flag', async () => {
    const result = await runInProcess(['create', ...recurringArgs], { home });
    const { last } = await received(sandbox);

    expect(result.code).toBe(0);
    expect(last?.kind).toBe('recurring');
    expect(last?.request).toStrictEqual(recurringBody);
    expect(result.stdout).toBe(`${last?.invoiceNumber}\n`);
    expect(result.stderr).toContain(`✔ Created recurring invoice ${last?.invoiceNumber} for 499.99 (local).\n`);
  });

  it('resolves relative dates once, against the same moment', async () => {
    const utcToday = () => new Date().toISOString().slice(0, 10);
    const dayBefore = utcToday();
    const result = await runInProcess(
      [
        'create',
        ...['single', '--customer-name', 'Amr', '--customer-mobile', '+201012345678', '--amount', '10'],
        ...['--note', 'Relative', '--sending-date', 'today', '--release-date', 'today', '--expiry-date', '+2w'],
      ],
      { home, env: { TZ: 'UTC' } },
    );
    const dayAfter = utcToday();
    const request = (await received(sandbox)).last?.request as {
      sendingDate: string;
      releaseDate: string;
      expiryDate: string;
    };

    expect(result.code).toBe(0);
    expect([dayBefore, dayAfter]).toContain(request.sendingDate);
    expect(request.releaseDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    // +2w counts from the sending date, to the end of that day on the merchant's clock (UTC here).
    const twoWeeksAfter = new Date(Date.parse(request.sendingDate) + 14 * 86_400_000).toISOString().slice(0, 10);
    expect(request.expiryDate).toBe(`${twoWeeksAfter}T23:59:59.999Z`);
  });

  it('prints {"invoiceNumber": "..."} with --json, the digits exactly as the service sent them', async () => {
    // Past 2^53, so a number parsed as a double would come back changed.
    const bigSandbox = await startTestSandbox({ firstInvoiceNumber: '90071992547409931' });
    try {
      const result = await runInProcess(['create', ...recurringArgs, '--json'], {
        home: homeFor(bigSandbox, { timeZone: 'UTC' }),
      });
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toStrictEqual({ invoiceNumber: '90071992547409931' });
      expect((await received(bigSandbox)).last?.request).toStrictEqual(recurringBody);
    } finally {
      await bigSandbox.close();
    }
  });

  it('--verbose logs the request and the answer on stderr', async () => {
    const args = [...without(recurringArgs, '--business-reference'), '--business-reference', 'PLAN-LOGGED'];
    const result = await runInProcess(['create', ...args, '--verbose'], { home });
    const { last } = await received(sandbox);
    expect(result.code).toBe(0);
    const url = `${sandbox.url}/invoice-api/invoices/recurring`;
    expect(result.stderr).toContain(`> POST ${url}\n`);
    expect(result.stderr).toMatch(new RegExp(`^< 201 Created \\(\\d+ ms\\) POST ${url}$`, 'm'));
    // Headers and bodies both ways, the token redacted.
    expect(result.stderr).toContain('> authorization: *** (redacted)\n');
    expect(result.stderr).toContain('> content-type: application/json\n');
    expect(result.stderr).toMatch(/^> \{"cycleType":"WEEK".*"businessReference":"PLAN-LOGGED"/m);
    expect(result.stderr).toMatch(/^< content-type: application\/json/m);
    expect(result.stderr).toContain(`\n< ${last?.invoiceNumber}\n`);
    expect(result.stderr).not.toContain(sandbox.token);
    expect(result.stdout).toBe(`${last?.invoiceNumber}\n`);
  });

  it('--dry-run prints the exact JSON body and sends nothing', async () => {
    const before = await received(sandbox);
    const result = await runInProcess(['create', ...singleArgs, '--dry-run'], { home });

    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${JSON.stringify(singleBody, null, 2)}\n`);
    expect((await received(sandbox)).count).toBe(before.count);
  });

  it('refuses an expiry already past or before the release, naming the dates, with exit 2', async () => {
    const dates = (expiry: string) => [
      ...without(without(without(singleArgs, '--expiry-date'), '--sending-date'), '--release-date'),
      ...['--sending-date', '2020-01-10', '--release-date', '2020-01-10', '--expiry-date', expiry, '--dry-run'],
    ];
    const past = await runInProcess(['create', ...dates('2020-01-31')], { home });
    expect(past.code).toBe(2);
    expect(past.stderr).toContain('expiryDate (--expiry-date): 2020-01-31T23:59:59.999Z has already passed');
    expect(past.stderr).not.toContain('is not after');
    expect(past.stdout).toBe('');

    const backwards = await runInProcess(['create', ...dates('2020-01-05')], { home });
    expect(backwards.code).toBe(2);
    expect(backwards.stderr).toContain(
      'expiryDate (--expiry-date): 2020-01-05T23:59:59.999Z is not after releaseDate 2020-01-10T00:00:00.000Z or sendingDate 2020-01-10',
    );
  });

  it('--print-command prints a command line that gives the same body', async () => {
    const printed = await runInProcess(['create', ...recurringArgs, '--dry-run', '--print-command'], { home });
    const commandLine = printed.stderr.split('\n').find((line) => line.startsWith('einvoice create recurring '));
    expect(commandLine).toBeDefined();

    const { execFileSync } = await import('node:child_process');
    const words = execFileSync('sh', ['-c', `printf '%s\\0' ${commandLine}`], { encoding: 'utf8' })
      .split('\0')
      .slice(3, -1);
    const again = await runInProcess(['create', 'recurring', ...words, '--dry-run'], { home });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toStrictEqual(recurringBody);
    expect(again.stdout).toBe(printed.stdout);
  });
});

describe('create from flags: what is refused before anything is sent', () => {
  it("blames a wrong item, not --amount, when the amount is the items' total", async () => {
    const flags = (item: string) => [
      ...['single', '--customer-name', 'Amr', '--customer-mobile', '+201012345678', '--item', item],
      ...['--sending-date', '2030-03-01', '--release-date', '2030-03-01', '--expiry-date', '2030-03-31', '--note', 'x'],
    ];
    const negative = await runInProcess(['create', ...flags('code=SKU1,qty=2,price=-150,en=Shirt,ar=قميص')], { home });
    expect(negative.code).toBe(2);
    expect(negative.stderr).toContain('  items[0].price (--item): must be 0 or more\n');
    expect(negative.stderr).not.toContain('--amount');
    // Valid items whose total is nothing: the total is what is wrong, and --amount was never given.
    const nothing = await runInProcess(['create', ...flags('code=SKU1,qty=1,price=10,en=Shirt,ar=قميص,discount=10')], {
      home,
    });
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain("  amount (the items' total): must be greater than 0\n");
  });

  it('exits 2 listing every missing field when there is no terminal', async () => {
    const before = await received(sandbox);
    const result = await runInProcess(['create', 'single'], { home });

    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('✖ The single invoice is incomplete or invalid; nothing was sent.');
    const listed = result.stderr.split('\n').filter((line) => line.startsWith('  '));
    expect(listed).toEqual([
      '  customer (--customer-name, --customer-mobile): is required',
      '  amount (--amount): is required',
      '  sendingDate (--sending-date): is required',
      '  expiryDate (--expiry-date): is required',
      '  releaseDate (--release-date): is required',
      '  note (--note): is required',
    ]);
    expect((await received(sandbox)).count).toBe(before.count);
  });

  it('in CI the hint does not promise prompts that will not come; elsewhere it says when they would', async () => {
    const inCi = await runInProcess(['create', 'single'], { home });
    expect(inCi.stderr).toContain('CI is set, so nothing is asked at a prompt.');
    expect(inCi.stderr).not.toContain('you are asked for them');
    const outsideCi = await runInProcess(['create', 'single'], { home, env: { CI: undefined } });
    expect(outsideCi.stderr).toContain('in a terminal without --no-input you are asked for them.');
  });

  it('exits 2 listing every invalid field and flag problem at once', async () => {
    const before = await received(sandbox);
    const result = await runInProcess(
      [
        'create',
        ...['recurring', '--customer-name', 'Mona', '--method', 'BOTH', '--payment-type', 'PUSH_TO_CUSTOMER'],
        ...['--sending-date', '2025-02-29', '--expiry-date', 'soon', '--release-date', '2030-04-01'],
        ...['--cycle-type', 'DAY', '--cycle-value', '0', '--discount-value', '5', '--note', 'x'],
        ...['--item', 'code=A,qty=1,price=abc,en=a,ar=أ,size=XL'],
      ],
      { home },
    );

    expect(result.code).toBe(2);
    const listed = result.stderr.split('\n').filter((line) => line.startsWith('  '));
    expect(listed).toEqual([
      '  items[0] (--item): "size" is not a key of an item. Keys: code, qty, price, en, ar, discount',
      '  cycleType (--cycle-type): must be one of MONTH, WEEK',
      '  cycleValue (--cycle-value): must be at least 1',
      '  customer.mobile (--customer-mobile): is required',
      '  sendingDate (--sending-date): February 2025 has no 29th day',
      '  expiryDate (--expiry-date): must be a date YYYY-MM-DD, a UTC date-time YYYY-MM-DDThh:mm:ss.sssZ, today, tomorrow, or +Nd, +Nw, +Nm (e.g. +30d)',
      '  discount.type (--discount-type): is required',
      '  items[0].price (--item): must be a number',
      '  paymentType (--payment-type): applies only to single invoices',
      '  customer.email (--customer-email): is required when communicationMethod is EMAIL or BOTH',
    ]);
    expect((await received(sandbox)).count).toBe(before.count);
  });

  it('says once that an --item of values without keys cannot be read, keeping the issues of readable items', async () => {
    const before = await received(sandbox);
    const result = await runInProcess(
      [
        'create',
        ...['single', '--customer-name', 'Mona', '--customer-mobile', '+201012345678', '--note', 'x'],
        ...['--item', 'SKU1,Shirt,قميص,2,10', '--item', 'code=B,qty=1,en=b,ar=ب,colour=red'],
      ],
      { home },
    );
    expect(result.code).toBe(2);
    const listed = result.stderr.split('\n').filter((line) => line.startsWith('  items'));
    expect(listed).toEqual([
      '  items[0] (--item): "SKU1,Shirt,قميص,2,10" is not KEY=VALUE pairs: write ' +
        'code=SKU1,qty=2,price=10.50,en=Shirt,ar=قميص (discount=5 optional)',
      '  items[1] (--item): "colour" is not a key of an item. Keys: code, qty, price, en, ar, discount',
      '  items[1].price (--item): is required',
    ]);
    expect((await received(sandbox)).count).toBe(before.count);
  });

  it('does not ask for an amount that invalid items would total, and does without items', async () => {
    const base = ['single', '--customer-name', 'Mona', '--customer-mobile', '+201012345678', '--note', 'x'];
    const dates = ['--sending-date', 'today', '--expiry-date', '+30d', '--release-date', 'today'];
    const badItem = await runInProcess(['create', ...base, ...dates, '--item', 'code=A,qty=2,price=abc,en=a,ar=أ'], {
      home,
    });
    expect(badItem.code).toBe(2);
    expect(badItem.stderr.split('\n').filter((line) => line.startsWith('  '))).toEqual([
      '  items[0].price (--item): must be a number',
    ]);
    const noItems = await runInProcess(['create', ...base, ...dates], { home });
    expect(noItems.code).toBe(2);
    expect(noItems.stderr).toContain('  amount (--amount): is required\n');
  });

  it('names a single-only flag given to a recurring invoice, and sends nothing', async () => {
    const before = await received(sandbox);
    const result = await runInProcess(['create', ...recurringArgs, '--payment-type', 'PUSH_TO_CUSTOMER'], { home });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('  paymentType (--payment-type): applies only to single invoices\n');
    expect((await received(sandbox)).count).toBe(before.count);
  });

  it('exits 2 when --amount differs from the items, --yes or not; --keep-amount or --amount-from-items decides', async () => {
    const withAmount = [...without(singleArgs, '--business-reference'), '--amount', '25'];
    const before = await received(sandbox);

    for (const args of [withAmount, [...withAmount, '--yes'], [...withAmount, '--yes', '--dry-run']]) {
      const refused = await runInProcess(['create', ...args], { home });
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stderr).toContain('nothing was sent.');
      expect(refused.stderr).toContain('  amount (--amount): is 25.00, the items add up to 20.30');
      expect(refused.stderr).toContain(
        'Drop --amount to use the items total, or pass --keep-amount to send 25.00 as given.',
      );
      expect(refused.stdout).toBe('');
    }
    expect((await received(sandbox)).count).toBe(before.count);

    const kept = await runInProcess(['create', ...withAmount, '--keep-amount'], { home });
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stderr).toContain("amount: 25.00 differs from the items' total 20.30; sent as given (--keep-amount).");
    const { businessReference: _reference, ...rest } = singleBody;
    expect((await received(sandbox)).last?.request).toStrictEqual({ ...rest, amount: 25 });

    const fromItems = await runInProcess(['create', ...withAmount, '--amount-from-items'], { home });
    expect(fromItems.code, fromItems.stderr).toBe(0);
    expect(fromItems.stderr).toContain('sent as 20.30 (--amount-from-items)');
    expect((await received(sandbox)).last?.request).toStrictEqual({ ...rest, amount: 20.3 });

    const both = await runInProcess(['create', ...withAmount, '--keep-amount', '--amount-from-items'], { home });
    expect(both.code).toBe(2);
  });

  it('exits 4 showing the existing invoice when the service refuses a duplicate', async () => {
    const args = [...without(recurringArgs, '--business-reference'), '--business-reference', 'PLAN-DUP'];
    const first = await runInProcess(['create', ...args], { home });
    expect(first.code).toBe(0);
    const { count, last } = await received(sandbox);

    const duplicate = await runInProcess(['create', ...args], { home });
    expect(duplicate.code).toBe(4);
    expect(duplicate.stdout).toBe('');
    expect(duplicate.stderr).toContain(`duplicate of invoice ${last?.invoiceNumber}`);
    expect((await received(sandbox)).count).toBe(count);
  });
});
