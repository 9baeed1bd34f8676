import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../helpers/http-server.js';
import { localProfile, writeProfile } from '../helpers/profile.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runInProcess } from '../helpers/in-process.js';
import { tempHome } from '../helpers/home.js';
import { newToken } from '../helpers/secrets.js';

type Group = { totalCount: number; totalAmount: number };
type Statistics = Record<
  'allInvoices' | 'paidInvoices' | 'unpaidInvoices' | 'expiredInvoices' | 'refundedInvoices' | 'canceledInvoices',
  Group
>;

function run(home: string, args: string[], env: Record<string, string> = {}) {
  return runInProcess(args, { env: { HOME: home, ...env } });
}

/** `stats --json` of the sandbox used from `home`. */
async function statsOf(home: string, args: string[] = []): Promise<Statistics> {
  const result = await run(home, [...args, 'stats', '--json']);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Statistics;
}

describe('sandbox commands against the embedded sandbox', () => {
  it('starts over empty with reset --empty, and with the demo invoices with reset', async () => {
    const home = tempHome();
    const empty = await run(home, ['sandbox', 'reset', '--empty']);
    expect(empty.code, empty.stderr).toBe(0);
    expect(empty.stdout).toBe('');
    expect(empty.stderr).toContain('✔ Sandbox reset: no invoices.\n');
    expect(empty.stderr).toContain('built-in sandbox');
    const zeros = await statsOf(home);
    for (const group of Object.values(zeros)) expect(group).toEqual({ totalCount: 0, totalAmount: 0 });

    const demo = await run(home, ['sandbox', 'reset']);
    expect(demo.code, demo.stderr).toBe(0);
    const count = Number(/Sandbox reset: (\d+) demo invoices\./.exec(demo.stderr)?.[1]);
    expect(count).toBeGreaterThan(0);
    const statistics = await statsOf(home);
    expect(statistics.allInvoices.totalCount).toBe(count);
    expect(statistics.unpaidInvoices.totalCount).toBeGreaterThan(0);
  });

  it("shows an Arabic message's date and amount each whole at the terminal; --json as the sandbox sent it", async () => {
    const home = tempHome();
    expect((await run(home, ['sandbox', 'reset', '--empty'])).code).toBe(0);
    const created = await run(home, [
      ...['create', 'single', '--customer-name', 'منى عادل', '--customer-mobile', '+201001234567', '--amount', '150'],
      ...['--note', 'إيجار', '--lang', 'ar-eg', '--sending-date', 'today', '--release-date', 'today'],
      ...['--expiry-date', '2030-05-12T12:00:00Z', '--yes'],
    ]);
    expect(created.code, created.stderr).toBe(0);

    const shown = await run(home, ['sandbox', 'outbox']);
    expect(shown.code, shown.stderr).toBe(0);
    // Between Arabic words each reads left to right, as one piece: LRI ... PDI.
    expect(shown.stdout).toContain('بمبلغ \u2066150.00\u2069 (إيجار)');
    expect(shown.stdout).toContain('ادفع قبل \u20662030-05-12\u2069: https://pay.sandbox.invalid/invoices/');
    const sent = await run(home, ['sandbox', 'outbox', '--json']);
    const { messages } = JSON.parse(sent.stdout) as { messages: Array<{ text: string }> };
    expect(messages).toHaveLength(1);
    expect(messages[0]?.text).toContain('بمبلغ 150.00 (إيجار) جاهزة. ادفع قبل 2030-05-12: https://');
    expect(messages[0]?.text).not.toMatch(/[\u2066-\u2069]/);
  });

  it('expires every unpaid invoice with expire --by 400d', async () => {
    const home = tempHome();
    const before = await statsOf(home);
    expect(before.unpaidInvoices.totalCount).toBeGreaterThan(0);

    const result = await run(home, ['sandbox', 'expire', '--by', '400d']);
    expect(result.code, result.stderr).toBe(0);
    // The numbers expired, one a line, on stdout; the sentence that tells them on stderr.
    const expired = result.stdout.trim().split('\n');
    expect(expired).toHaveLength(before.unpaidInvoices.totalCount);
    expect(result.stderr).toContain(`; expired: ${expired.join(', ')}.`);

    const after = await statsOf(home);
    expect(after.unpaidInvoices).toEqual({ totalCount: 0, totalAmount: 0 });
    expect(after.expiredInvoices.totalCount).toBe(before.expiredInvoices.totalCount + before.unpaidInvoices.totalCount);
    expect(after.expiredInvoices.totalAmount).toBeCloseTo(
      before.expiredInvoices.totalAmount + before.unpaidInvoices.totalAmount,
      2,
    );
    expect(after.paidInvoices).toEqual(before.paidInvoices);
  });

  it('lists the outbox as JSON', async () => {
    const home = tempHome();
    expect((await run(home, ['sandbox', 'reset'])).code).toBe(0);
    const result = await run(home, ['sandbox', 'outbox', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const { messages } = JSON.parse(result.stdout) as { messages: Array<Record<string, string>> };
    expect(Array.isArray(messages)).toBe(true);
    for (const message of messages) {
      expect(message).toMatchObject({
        to: expect.stringMatching(/^(customer|merchant)$/),
        invoiceNumber: expect.any(String),
      });
    }
  });

  it('rejects an invalid duration or invoice number with exit 2', async () => {
    const home = tempHome();
    const duration = await run(home, ['sandbox', 'expire', '--by', '3 days']);
    expect(duration.code, duration.stderr).toBe(2);
    expect(duration.stderr).toContain('Invalid --by "3 days"');
    const number = await run(home, ['sandbox', 'pay', '../x']);
    expect(number.code, number.stderr).toBe(2);
    expect(number.stderr).toContain('"../x" is not an invoice number; nothing was sent.');
  });
});

describe('sandbox commands against a served sandbox', () => {
  let sandbox: TestSandbox;
  let home: string;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    home = tempHome();
    writeProfile(home, { environments: { local: { baseUrl: sandbox.url, token: sandbox.token } } });
  });
  afterAll(() => sandbox.close());

  it('pays an unpaid invoice: its order reference number alone on stdout, the sentence on stderr', async () => {
    const invoiceNumber = await sandbox.api.createInvoice({ amount: 75 });
    const result = await run(home, ['--env', 'local', 'sandbox', 'pay', invoiceNumber]);
    expect(result.code, result.stderr).toBe(0);
    const stored = await sandbox.api.invoice(invoiceNumber);
    expect(stored?.status).toBe('PAID');
    expect(result.stdout).toBe(`${stored?.orderReferenceNumber}\n`);
    expect(result.stderr).toContain(
      `✔ Invoice ${invoiceNumber} is PAID; order reference number ${stored?.orderReferenceNumber}.\n`,
    );
  });

  it('pays with --json: one JSON object on stdout, and nothing else there', async () => {
    const invoiceNumber = await sandbox.api.createInvoice({ amount: 80 });
    const result = await run(home, ['--env', 'local', 'sandbox', 'pay', invoiceNumber, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const stored = await sandbox.api.invoice(invoiceNumber);
    expect(JSON.parse(result.stdout)).toMatchObject({
      invoiceNumber,
      status: 'PAID',
      orderReferenceNumber: stored?.orderReferenceNumber,
    });
    expect(result.stderr).not.toContain('{');
  });

  it('cancels an unpaid invoice, with --json', async () => {
    const invoiceNumber = await sandbox.api.createInvoice({ amount: 76 });
    const result = await run(home, ['--env', 'local', 'sandbox', 'cancel', invoiceNumber, '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ invoiceNumber, status: 'CANCELED' });
    expect((await sandbox.api.invoice(invoiceNumber))?.status).toBe('CANCELED');
  });

  it('exits 4 with the sandbox message when the invoice cannot be paid or does not exist', async () => {
    const { invoiceNumber } = await sandbox.api.createPaidInvoice({ amount: 77 });
    const result = await run(home, ['--env', 'local', 'sandbox', 'pay', invoiceNumber]);
    expect(result.code, result.stderr).toBe(4);
    expect(result.stderr).toContain(`Invoice ${invoiceNumber} is PAID; only an UNPAID invoice can be paid.`);
    const unknown = await run(home, ['--env', 'local', 'sandbox', 'cancel', '999999999']);
    expect(unknown.code, unknown.stderr).toBe(4);
    expect(unknown.stderr).toContain('There is no invoice 999999999.');
  });

  it('shows the SMS sent for a new invoice in the outbox', async () => {
    const invoiceNumber = await sandbox.api.createInvoice({ amount: 78, communicationMethod: 'SMS' });
    const result = await run(home, ['--env', 'local', 'sandbox', 'outbox', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const { messages } = JSON.parse(result.stdout) as { messages: Array<Record<string, string>> };
    expect(messages.filter((message) => message.invoiceNumber === invoiceNumber)).toEqual([
      expect.objectContaining({ to: 'customer', channel: 'SMS', address: '+201001234567' }),
    ]);
  });

  it('expires the unpaid invoices it serves', async () => {
    const invoiceNumber = await sandbox.api.createInvoice({ amount: 79 });
    const result = await run(home, ['--env', 'local', 'sandbox', 'expire', '--by', '400d']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(invoiceNumber);
    expect((await sandbox.api.invoice(invoiceNumber))?.status).toBe('EXPIRED');
  });
});

describe('sandbox commands refused for other environments', () => {
  it('refuses an environment that is not on this machine, sending nothing', async () => {
    // 0.0.0.0 is not a loopback name, yet a request to it would reach this server: so none must be seen.
    const server = await startTestServer();
    try {
      const home = tempHome();
      // A loopback address in the file, overridden (as CI would) by one that is not this machine.
      writeProfile(home, localProfile(server.url, newToken('remote')));
      const elsewhere = { EINVOICE_BASE_URL: `http://0.0.0.0:${server.port}` };
      for (const args of [['reset'], ['pay', '1000001'], ['expire'], ['outbox']]) {
        const result = await run(home, ['sandbox', ...args], elsewhere);
        expect(result.code, result.stderr).toBe(2);
        expect(result.stderr).toContain(
          `The local environment (http://0.0.0.0:${server.port}) is not a sandbox on this machine.`,
        );
      }
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  it('refuses a service on this machine that has no sandbox admin API', async () => {
    const server = await startTestServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('Not Found');
    });
    try {
      const home = tempHome();
      writeProfile(home, localProfile(server.url, newToken('plain')));
      const result = await run(home, ['sandbox', 'reset', '--empty']);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`is not a sandbox: it has no admin API.`);
    } finally {
      await server.close();
    }
  });
});
