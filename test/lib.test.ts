import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The package's own name resolves through `exports` in package.json to the built entry, dist/lib.js with
// dist/lib.d.ts: this file uses einvoice exactly as a program that installed it does.
import {
  AuthError,
  createClient,
  refundSchema,
  singleInvoiceSchema,
  startSandbox,
  validate,
  type RunningSandbox,
  type SingleInvoiceInput,
} from 'einvoice';
import { rememberToken } from './helpers/secrets.js';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ token: rememberToken('lib-test-token-0123456789') });
});
afterAll(() => sandbox.close());

describe("import { createClient, startSandbox, ... } from 'einvoice'", () => {
  it('resolves to the built entry', () => {
    expect(import.meta.resolve('einvoice')).toMatch(/\/dist\/lib\.js$/);
  });

  it('creates an invoice against a sandbox and reads it back in the statistics', async () => {
    const client = createClient({ baseUrl: sandbox.url, token: sandbox.token });
    const before = await client.getStatistics();

    const now = Date.now();
    const input: SingleInvoiceInput = {
      customer: { name: 'Mona Adel', mobile: '+201001234567' },
      amount: 250.5,
      sendingDate: new Date(now).toISOString().slice(0, 10),
      expiryDate: new Date(now + 30 * 86_400_000).toISOString(),
      releaseDate: new Date(now - 60_000).toISOString(),
      note: 'From the programmatic API',
      paymentType: 'PUSH_TO_CUSTOMER',
      taxes: 14,
    };
    const checked = validate(singleInvoiceSchema, input);
    if (!checked.success) throw new Error(JSON.stringify(checked.issues));
    expect(checked.data.taxes).toBe('14');
    const { invoiceNumber } = await client.createInvoice('single', checked.data);
    expect(invoiceNumber).toMatch(/^\d+$/);

    const after = await client.getStatistics();
    expect(after.allInvoices.totalCount).toBe(before.allInvoices.totalCount + 1);
    expect(after.unpaidInvoices.totalCount).toBe(before.unpaidInvoices.totalCount + 1);
    expect(after.allInvoices.totalAmount).toBeCloseTo(before.allInvoices.totalAmount + 250.5, 2);
  });

  it('throws its typed errors, and validates with the same schemas as the CLI', async () => {
    const client = createClient({ baseUrl: sandbox.url, token: 'not-the-sandbox-token' });
    await expect(client.getStatistics()).rejects.toBeInstanceOf(AuthError);
    expect(validate(refundSchema, { amount: '12.345', reason: 'x', orderReferenceNumber: '1' })).toEqual({
      success: false,
      issues: [{ path: 'amount', message: 'must have at most two decimals' }],
    });
  });

  it('ships type declarations that export the names', () => {
    const declarations = readFileSync(new URL('../dist/lib.d.ts', import.meta.url), 'utf8');
    for (const name of ['createClient', 'startSandbox', 'resolveProfile', 'EinvoiceError', 'ExitCode', 'main']) {
      expect(declarations).toMatch(new RegExp(`export \\{[^}]*\\b${name}\\b`));
    }
    expect(declarations).toContain("export * from './schemas/index.js';");
    const schemas = readFileSync(new URL('../dist/schemas/invoice.d.ts', import.meta.url), 'utf8');
    expect(schemas).toContain('export declare const singleInvoiceSchema');
  });
});
