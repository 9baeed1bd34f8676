import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys, terminalSessions, type PtySession } from '../helpers/pty.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runInProcess } from '../helpers/in-process.js';
import { homeFor } from '../helpers/profile.js';

// A person at a terminal: the CLI runs in a real pseudo-terminal, and each answer is typed only once its prompt
// is on the screen. Prompt texts are those of src/input/invoice-prompts.ts.

let sandbox: TestSandbox;
const terminals = terminalSessions();

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

const startInTerminal = (args: string[], home: string) => terminals.start(args, home);

function expectNoToken(session: PtySession): void {
  expect(session.screen()).not.toContain(sandbox.token);
}

describe('create single at the prompts', () => {
  it('asks only for what is missing or invalid, re-asks an invalid answer, and sends what was typed', async () => {
    const before = (await sandbox.api.invoices()).length;
    const home = homeFor(sandbox, { timeZone: 'UTC' });
    const cli = startInTerminal(
      ['create', 'single', '--env', 'local', '--customer-name', 'Amr Hassan', '--customer-mobile', '0101'],
      home,
    );

    await cli.answer('Add a line item?', 'y');
    await cli.answer('Item code', 'SKU1');
    await cli.answer('Quantity', '2');
    await cli.answer('Price', 'abc');
    await cli.waitFor('must be a number');
    cli.type(`${keys.backspace.repeat(3)}10.50${keys.enter}`);
    await cli.answer('Name in English', 'Shirt');
    await cli.answer('Name in Arabic', 'قميص');
    await cli.answer('Flat discount on this item (blank for none)', '');
    await cli.waitFor('1 item, running total 21.00');
    await cli.answer('Add another item?', 'n');

    // The mobile from the flag is invalid, so it is asked again, saying why; the valid name is not asked.
    await cli.waitFor('customer.mobile: the value given must be a mobile number: an optional + and 7 to 15 digits');
    await cli.answer('Customer mobile (e.g. +201012345678)', '+201012345678');
    await cli.answer('Sending (due) date', '2030-01-15');
    await cli.answer('Release date', '2030-01-15');
    await cli.answer('Expiry date', '2030-02-15');
    await cli.answer('Note (what the customer pays for)', 'Order 1043');

    await cli.answer('Set optional fields', 'y');
    await cli.waitFor('Notify the customer by');
    cli.type(`${keys.down}${keys.enter}`); // SMS -> EMAIL
    await cli.answer('Business reference', 'PTY-1');
    await cli.waitFor('Language of the notification');
    cli.type(`${keys.down}${keys.enter}`); // en-gb -> ar-eg
    await cli.waitFor('Payment type');
    cli.type(`${keys.down}${keys.enter}`); // PUSH_TO_CUSTOMER -> PUSH_TO_SERVICE_PAY
    await cli.answer('Taxes (percentage, 0 to 100)', '14');
    await cli.answer('Preferred payment method', 'CARD');
    await cli.answer('E-mail me when the invoice expires?', 'y');
    // EMAIL makes the customer's e-mail required, so it is asked last.
    await cli.answer('Customer e-mail', 'amr@example.com');

    await cli.waitFor('Single invoice for Amr Hassan (+201012345678, amr@example.com)');
    await cli.answer('Create this single invoice in local?', 'y');
    const { code } = await cli.exited;

    expect(code).toBe(0);
    const invoices = await sandbox.api.invoices();
    expect(invoices).toHaveLength(before + 1);
    const created = invoices.at(-1);
    expect(cli.screen()).toContain(`✔ Created single invoice ${created?.invoiceNumber} for 21.00 (local).`);
    expect(cli.screen()).not.toContain('Customer name');
    // With items and no --amount, the amount is their total and is not asked for.
    expect(cli.screen()).not.toContain('Amount (');
    expect(created?.request).toStrictEqual({
      customer: { name: 'Amr Hassan', email: 'amr@example.com', mobile: '+201012345678' },
      amount: 21,
      sendingDate: '2030-01-15',
      expiryDate: '2030-02-15T23:59:59.999Z',
      releaseDate: '2030-01-15T00:00:00.000Z',
      businessReference: 'PTY-1',
      note: 'Order 1043',
      communicationLang: 'ar-eg',
      communicationMethod: 'EMAIL',
      alertMerchantUponExpiry: true,
      items: [{ itemCode: 'SKU1', purchasedQuantity: 2, price: 10.5, nameEn: 'Shirt', nameAr: 'قميص' }],
      paymentType: 'PUSH_TO_SERVICE_PAY',
      taxes: '14',
      preferredPaymentMethod: 'CARD',
    });
    expectNoToken(cli);
  });
});

describe('the prompts apply the rules of flags and files', () => {
  it('re-asks an amount that no JSON number carries exactly, and sends the one typed', async () => {
    const home = homeFor(sandbox);
    const cli = startInTerminal(
      [
        ...['create', 'single', '--env', 'local', '--customer-name', 'Amr', '--customer-mobile', '+201012345678'],
        ...['--note', 'Exact', '--sending-date', '2030-01-15', '--release-date', '2030-01-15'],
        ...['--expiry-date', '2030-02-15'],
      ],
      home,
    );
    await cli.answer('Add a line item?', 'n');
    await cli.answer('Amount', '90071992547409.93');
    await cli.waitFor('cannot be sent exactly');
    cli.type(`${keys.backspace.repeat(17)}1234567890123.45${keys.enter}`);
    await cli.answer('Set optional fields', 'n');
    await cli.answer('Create this single invoice in local?', 'y');
    expect((await cli.exited).code).toBe(0);
    expect(((await sandbox.api.invoices()).at(-1)?.request as { amount: number }).amount).toBe(1_234_567_890_123.45);
  });
});

describe('Ctrl-C at a prompt', () => {
  it('sends nothing, exits 130 and keeps the answers typed so far in a draft file', async () => {
    const before = (await sandbox.api.invoices()).length;
    const home = homeFor(sandbox);
    const cli = startInTerminal(['create', 'recurring', '--env', 'local'], home);

    await cli.answer('Add a line item?', 'n');
    await cli.waitFor('Cycle type (how the invoice repeats)');
    cli.type(`${keys.down}${keys.enter}`); // MONTH -> WEEK
    await cli.answer('Cycle value', '2');
    await cli.answer('Customer name', 'Mona Adel');
    await cli.waitFor('Customer mobile');
    cli.type(keys.ctrlC);
    const { code } = await cli.exited;

    expect(code).toBe(130);
    expect(await sandbox.api.invoices()).toHaveLength(before);
    const screen = cli.screen();
    expect(screen).toContain('Interrupted: nothing was sent.');
    const saved = /Your answers are saved in (\S+\.json)/.exec(screen);
    expect(saved, 'the draft path is printed').not.toBeNull();
    const draftPath = saved?.[1] as string;
    expect(draftPath.startsWith(home)).toBe(true);
    expect(existsSync(draftPath)).toBe(true);
    expect(JSON.parse(readFileSync(draftPath, 'utf8'))).toStrictEqual({
      cycleType: 'WEEK',
      cycleValue: 2,
      customer: { name: 'Mona Adel' },
    });
    // The way back keeps the environment the merchant chose.
    expect(screen).toContain(`Continue with: einvoice --env local create recurring --file ${draftPath}`);
    expectNoToken(cli);
  });
});

describe('Ctrl-C while typing items', () => {
  it('keeps every item completed and the one being typed', async () => {
    const home = homeFor(sandbox);
    const cli = startInTerminal(['create', 'single', '--env', 'local'], home);
    await cli.answer('Add a line item?', 'y');
    await cli.answer('Item code', 'MUG');
    await cli.answer('Quantity', '2');
    await cli.answer('Price', '10.50');
    await cli.answer('Name in English', 'Mug');
    await cli.answer('Name in Arabic', 'كوب');
    await cli.answer('Flat discount', '');
    await cli.answer('Add another item?', 'y');
    await cli.answer('Item code', 'TEA');
    await cli.answer('Quantity', '3');
    await cli.waitFor('Price');
    cli.type(keys.ctrlC);

    expect((await cli.exited).code).toBe(130);
    const draftPath = /Your answers are saved in (\S+\.json)/.exec(cli.screen())?.[1] as string;
    expect(JSON.parse(readFileSync(draftPath, 'utf8'))).toStrictEqual({
      items: [
        { itemCode: 'MUG', purchasedQuantity: 2, price: 10.5, nameEn: 'Mug', nameAr: 'كوب' },
        { itemCode: 'TEA', purchasedQuantity: 3 },
      ],
    });
  });
});

describe('Ctrl-C at the confirmation', () => {
  it('keeps the answers typed before it, and the draft finishes the invoice with --file', async () => {
    const before = (await sandbox.api.invoices()).length;
    const home = homeFor(sandbox, { timeZone: 'UTC' });
    const cli = startInTerminal(
      [
        'create',
        'single',
        '--customer-name',
        'Amr',
        '--amount',
        '5',
        '--note',
        'Draft',
        '--sending-date',
        '2030-01-01',
      ],
      home,
    );
    await cli.answer('Add a line item?', 'n');
    await cli.answer('Customer mobile', '+201012345678');
    await cli.answer('Release date', '2030-01-01');
    await cli.answer('Expiry date', '2030-02-01');
    await cli.answer('Set optional fields', 'n');
    await cli.waitFor('Create this single invoice in local?');
    cli.type(keys.ctrlC);

    expect((await cli.exited).code).toBe(130);
    expect(await sandbox.api.invoices()).toHaveLength(before);
    const draftPath = /Your answers are saved in (\S+\.json)/.exec(cli.screen())?.[1] as string;
    expect(existsSync(draftPath)).toBe(true);

    // The folder and the file are the user's alone.
    expect(statSync(draftPath).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(draftPath)).mode & 0o777).toBe(0o700);

    const finished = await runInProcess(['create', 'single', '--file', draftPath], { home });
    expect(finished.code).toBe(0);
    expect(finished.stderr).toContain(
      `${draftPath} is a draft of answers typed at the prompts of an earlier run; it is removed once the invoice is created.`,
    );
    expect(existsSync(draftPath), 'the draft is removed once its invoice is created').toBe(false);
    expect((await sandbox.api.invoices()).at(-1)?.request).toStrictEqual({
      customer: { name: 'Amr', mobile: '+201012345678' },
      amount: 5,
      sendingDate: '2030-01-01',
      expiryDate: '2030-02-01T23:59:59.999Z',
      releaseDate: '2030-01-01T00:00:00.000Z',
      note: 'Draft',
    });
  });
});

describe('the rest of the terminal flow', () => {
  const complete = [
    ...['--customer-name', 'Amr', '--customer-mobile', '+201012345678', '--note', 'Order 7'],
    ...['--sending-date', '2030-01-01', '--release-date', '2030-01-01', '--expiry-date', '2030-02-01'],
    ...['--item', 'code=A,qty=2,price=10,en=Mug,ar=كوب'],
  ];

  it('asks which amount to use when --amount differs from the items, then confirms the preview', async () => {
    const cli = startInTerminal(
      ['create', 'single', ...complete, '--amount', '25'],
      homeFor(sandbox, { timeZone: 'UTC' }),
    );
    await cli.waitFor("The amount 25.00 differs from the items' total 20.00. Which should the single invoice use?");
    cli.type(`${keys.down}${keys.enter}`); // the items' total -> the amount given
    await cli.waitFor(/Amount\s+25\.00/);
    await cli.answer('Create this single invoice in local?', 'y');

    expect((await cli.exited).code).toBe(0);
    const created = (await sandbox.api.invoices()).at(-1);
    expect(cli.screen()).toContain(`✔ Created single invoice ${created?.invoiceNumber} for 25.00 (local).`);
    expect(created?.request).toStrictEqual({
      customer: { name: 'Amr', mobile: '+201012345678' },
      amount: 25,
      sendingDate: '2030-01-01',
      expiryDate: '2030-02-01T23:59:59.999Z',
      releaseDate: '2030-01-01T00:00:00.000Z',
      note: 'Order 7',
      items: [{ itemCode: 'A', purchasedQuantity: 2, price: 10, nameEn: 'Mug', nameAr: 'كوب' }],
    });
    expectNoToken(cli);
  });

  it("asks the expiry again when it has passed, then previews on the merchant's clock and currency", async () => {
    const home = homeFor(sandbox, { timeZone: 'Africa/Cairo', currency: 'EGP' });
    const args = complete.map((arg) => (arg === '2030-02-01' ? '2020-02-01' : arg));
    const cli = startInTerminal(['create', 'single', ...args], home);
    await cli.waitFor('expiryDate (--expiry-date): 2020-02-01T21:59:59.999Z has already passed');
    await cli.answer('Expiry date', '+30d');
    await cli.waitFor(/Amount\s+20\.00 EGP/);
    await cli.waitFor(/Time zone\s+Africa\/Cairo/);
    await cli.answer('Create this single invoice in local?', 'y');

    expect((await cli.exited).code).toBe(0);
    const created = (await sandbox.api.invoices()).at(-1);
    expect(cli.screen()).toContain(`✔ Created single invoice ${created?.invoiceNumber} for 20.00 EGP (local).`);
    // 30 days after the sending date, to the end of that day in Cairo; the currency is never sent.
    expect(created?.request).toMatchObject({ sendingDate: '2030-01-01', expiryDate: '2030-01-31T21:59:59.999Z' });
    expect(JSON.stringify(created?.request)).not.toContain('EGP');
  });

  it('sends nothing when the preview is declined', async () => {
    const before = (await sandbox.api.invoices()).length;
    const cli = startInTerminal(['create', 'single', ...complete], homeFor(sandbox));
    await cli.waitFor('Single invoice for Amr (+201012345678)');
    await cli.answer('Create this single invoice in local? (y/N)', '');

    expect((await cli.exited).code).toBe(130);
    expect(cli.screen()).toContain('Cancelled: nothing was sent.');
    expect(await sandbox.api.invoices()).toHaveLength(before);
  });

  it('reports a flag the prompts cannot repair at once, without asking anything', async () => {
    const before = (await sandbox.api.invoices()).length;
    const cli = startInTerminal(
      ['create', 'recurring', '--payment-type', 'PUSH_TO_CUSTOMER', '--item', 'code=A,qty=1,dicount=5'],
      homeFor(sandbox),
    );

    expect((await cli.exited).code).toBe(2);
    const screen = cli.screen();
    expect(screen).toContain('fields that cannot be asked for; nothing was sent.');
    expect(screen).toContain(
      'items[0] (--item): "dicount" is not a key of an item; did you mean discount? Keys: code, qty, price, en, ar, discount',
    );
    expect(screen).toContain('paymentType (--payment-type): applies only to single invoices');
    // No prompt was shown (each begins with "?").
    expect(screen).not.toMatch(/^\s*\? /m);
    expect(await sandbox.api.invoices()).toHaveLength(before);
  });

  it('never prompts with --no-input, and lists every missing field', async () => {
    const cli = startInTerminal(['--no-input', 'create', 'single', '--customer-name', 'Amr'], homeFor(sandbox));

    expect((await cli.exited).code).toBe(2);
    const screen = cli.screen();
    expect(screen).not.toContain('?');
    for (const line of [
      'customer.mobile (--customer-mobile): is required',
      'amount (--amount): is required',
      'sendingDate (--sending-date): is required',
      'expiryDate (--expiry-date): is required',
      'releaseDate (--release-date): is required',
      'note (--note): is required',
    ]) {
      expect(screen).toContain(line);
    }
  });
});
