import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import { execFileSync } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../../src/context.js';
import { invoiceFromFlags, toCommandLine, type InvoiceFlags } from '../../src/input/invoice-flags.js';
import { mergeInvoiceSources } from '../../src/input/invoice-input.js';
import { buildProgram } from '../../src/program.js';
import { invoiceSchemas, validate, type Invoice, type InvoiceKind } from '../../src/schemas/index.js';

// --print-command must print a line that, pasted into a POSIX shell, creates the same invoice: the line is split
// into arguments by a real shell, the arguments are parsed by the real flag declarations, and the invoice built
// from them must equal the original.

/** Splits a command line into its arguments the way /bin/sh does. */
function shellWords(commandLine: string): string[] {
  const output = execFileSync('sh', ['-c', `printf '%s\\0' ${commandLine}`], { encoding: 'utf8' });
  return output.split('\0').slice(0, -1);
}

/** Parses `einvoice create <kind> ...` with the program's own flag declarations; returns what the command gets. */
async function parseWithProgram(words: string[]): Promise<InvoiceFlags & { env?: string }> {
  const context: CommandContext = {
    stdin: new PassThrough(),
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    env: {},
    cwd: process.cwd(),
  };
  const program = buildProgram(context);
  const [name, create, kind] = words;
  expect([name, create]).toEqual(['einvoice', 'create']);
  const command = program.commands.find((each) => each.name() === 'create')?.commands.find((c) => c.name() === kind);
  let parsed: (InvoiceFlags & { env?: string }) | undefined;
  command?.action(function (this: Command) {
    parsed = this.optsWithGlobals();
  });
  await program.parseAsync(words.slice(1), { from: 'user' });
  if (!parsed) throw new Error(`einvoice create ${kind} did not run`);
  return parsed;
}

function checked(kind: InvoiceKind, raw: unknown): Invoice {
  const result = validate(invoiceSchemas[kind], raw);
  if (!result.success) throw new Error(JSON.stringify(result.issues));
  return result.data;
}

async function roundTrip(kind: InvoiceKind, invoice: Invoice, environment?: string) {
  const words = shellWords(toCommandLine(kind, invoice, environment));
  const options = await parseWithProgram(words);
  const fromFlags = invoiceFromFlags(options);
  expect(fromFlags.issues).toEqual([]);
  const raw = mergeInvoiceSources({ kind, defaults: {}, flags: fromFlags.invoice, now: new Date() });
  return { invoice: checked(kind, raw), env: options.env, words };
}

const tricky = {
  customer: { name: `Zeina O'Neil "Zee" $HOME`, email: 'zee@example.com', mobile: '+201012345678' },
  amount: 20.3,
  sendingDate: '2030-03-01',
  expiryDate: '2030-03-31T23:59:59.999Z',
  releaseDate: '2030-03-01T07:30:00.000Z',
  businessReference: 'REF #1 * `id`',
  note: '-5% off, "today" only! Second line; and a \\ backslash',
  communicationLang: 'ar-eg',
  communicationMethod: 'BOTH',
  alertMerchantUponExpiry: false,
  items: [
    {
      itemCode: 'SKU=1',
      purchasedQuantity: 2,
      price: 10.5,
      nameEn: `Shirt, "slim" fit, Bob's`,
      nameAr: 'قميص، أزرق',
      discount: { value: 1, type: 'FLAT' },
    },
    { itemCode: 'SKU2', purchasedQuantity: 3, price: 0.1, nameEn: 'Sock', nameAr: 'جورب' },
  ],
  paymentType: 'PUSH_TO_SERVICE_PAY',
  taxes: 14.5,
  preferredPaymentMethod: 'Pay at "shop"',
};

describe('toCommandLine round trip', () => {
  it('gives back the same single invoice, with quotes, commas, Arabic text and $ intact', async () => {
    const invoice = checked('single', tricky);
    const result = await roundTrip('single', invoice, 'staging');
    expect(result.invoice).toStrictEqual(invoice);
    expect(result.env).toBe('staging');
  });

  it('gives back the same recurring invoice', async () => {
    const { paymentType: _paymentType, ...shared } = tricky;
    const invoice = checked('recurring', {
      ...shared,
      cycleType: 'WEEK',
      cycleValue: 2,
      discount: { value: 10, type: 'PERCENTAGE' },
      alertMerchantUponExpiry: true,
      items: [{ itemCode: 'PLAN', purchasedQuantity: 1, price: 499.99, nameEn: 'Plan, gold', nameAr: 'باقة' }],
      amount: 499.99,
    });
    const result = await roundTrip('recurring', invoice);
    expect(result.invoice).toStrictEqual(invoice);
    expect(result.words).toContain('--alert-on-expiry');
    expect(result.env).toBeUndefined();
  });

  it('gives back a minimal invoice, with a false alert written as --no-alert-on-expiry', async () => {
    const invoice = checked('single', {
      customer: { name: 'Amr', mobile: '+201012345678' },
      amount: 1,
      sendingDate: '2024-02-29',
      expiryDate: '2024-03-01T00:00:00.000Z',
      releaseDate: '2024-02-29T00:00:00.000Z',
      note: 'x',
      alertMerchantUponExpiry: 'false',
    });
    const result = await roundTrip('single', invoice);
    expect(result.invoice).toStrictEqual(invoice);
    expect(result.words).toContain('--no-alert-on-expiry');
    expect(result.words).not.toContain('--customer-email');
  });

  it('writes only flags of the kind, in the order of the flag table', () => {
    const invoice = checked('single', { ...tricky, items: undefined });
    const words = shellWords(toCommandLine('single', invoice));
    const flags = words.filter((word) => word.startsWith('--'));
    expect(flags).toEqual([
      '--customer-name',
      '--customer-mobile',
      '--customer-email',
      '--amount',
      '--sending-date',
      '--expiry-date',
      '--release-date',
      '--business-reference',
      '--note',
      '--lang',
      '--method',
      '--no-alert-on-expiry',
      '--payment-type',
      '--taxes',
      '--preferred-payment-method',
    ]);
  });
});
