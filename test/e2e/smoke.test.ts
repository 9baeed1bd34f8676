import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runSpawned } from '../helpers/spawned.js';
import { tempHome } from '../helpers/home.js';

// One run of each command of the built CLI (bin/einvoice.cjs and dist/), as a merchant runs it, against the built-in
// sandbox of one home folder. What each command does is tested in-process in test/commands/; this proves the
// package runs it: on Node 24 in `npm test`, and on the oldest Node the package supports in `npm run test:node22`.
// sandbox serve, sandbox ui and config init are spawned by their own tests in test/e2e/ and test/sandbox/.

let home = '';
const run = (args: string[]) => runSpawned(args, { env: { HOME: home } });

beforeAll(() => {
  home = tempHome();
});

describe('each command of the built CLI', () => {
  // The cases share one sandbox and run in order: each starts from what the one before it left.
  let paid = { invoiceNumber: '', orderReference: '' };

  it('sandbox reset', async () => {
    const result = await run(['sandbox', 'reset', '--empty']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('✔ Sandbox reset: no invoices.\n');
  });

  it('create single', async () => {
    const result = await run([
      ...['create', 'single', '--customer-name', 'Amr Hassan', '--customer-mobile', '+201012345678'],
      ...['--amount', '150', '--sending-date', 'today', '--release-date', 'today', '--expiry-date', '+30d'],
      ...['--note', 'Order 1043', '--yes', '--json'],
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ invoiceNumber: '1000001' });
  });

  it('sandbox pay', async () => {
    const result = await run(['sandbox', 'pay', '1000001']);
    expect(result.code, result.stderr).toBe(0);
    // What a script needs, alone on stdout: `ref=$(einvoice sandbox pay 1000001)`.
    const orderReference = result.stdout.trim();
    expect(result.stdout).toMatch(/^\d+\n$/);
    expect(result.stderr).toContain(`order reference number ${orderReference}.`);
    paid = { invoiceNumber: '1000001', orderReference };
  });

  it('refund', async () => {
    const result = await run([
      ...['refund', paid.invoiceNumber, '--amount', '50', '--reason', 'damaged'],
      ...['--order-ref', paid.orderReference, '--yes', '--json'],
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ invoiceNumber: paid.invoiceNumber });
  });

  it('template and create recurring from its file', async () => {
    const template = await run(['template', 'recurring', '--format', 'json']);
    expect(template.code, template.stderr).toBe(0);
    writeFileSync(join(home, 'recurring.json'), template.stdout);
    const result = await run(['create', 'recurring', '--file', 'recurring.json', '--yes', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ invoiceNumber: '1000002' });
  });

  it('sandbox cancel', async () => {
    const result = await run(['sandbox', 'cancel', '1000002']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('✔ Invoice 1000002 is CANCELED.');
  });

  it('sandbox outbox', async () => {
    const result = await run(['sandbox', 'outbox']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Hello Amr Hassan, invoice 1000001 for 150.00 (Order 1043)');
  });

  it('sandbox expire', async () => {
    const result = await run(['sandbox', 'expire', '--by', '400d']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^Sandbox clock is now /m);
    // The numbers that expired, if any, one a line: nothing else is on stdout.
    expect(result.stdout).toMatch(/^(\d+\n)*$/);
  });

  it('stats', async () => {
    const result = await run(['stats', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const statistics = JSON.parse(result.stdout) as Record<string, { totalCount: number }>;
    expect(statistics.allInvoices?.totalCount).toBe(2);
    expect(statistics.canceledInvoices?.totalCount).toBe(1);
  });

  it('config show', async () => {
    const result = await run(['config', 'show']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Environment\s+sandbox/);
  });

  it('schema', async () => {
    const result = await run(['schema', 'single']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ type: 'object' });
  });

  it('completion', async () => {
    const result = await run(['completion', 'bash']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('_einvoice()');
  });

  it('help, a topic, and --version', async () => {
    const help = await run(['--help']);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('Usage: einvoice');
    const topic = await run(['help', 'exit-codes']);
    expect(topic.code, topic.stderr).toBe(0);
    expect(topic.stdout).toContain('143');
    const version = await run(['--version']);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('a mistyped command exits 2', async () => {
    const result = await run(['stat']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('stats');
  });
});
