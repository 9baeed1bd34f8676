import { mkdtempSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { call, createInvoice, singleInvoice } from './support.js';

describe('a state file', () => {
  let stateFile: string;
  const running: RunningSandbox[] = [];
  const start = async (options: Parameters<typeof startSandbox>[0] = {}) => {
    const sandbox = await startSandbox({ stateFile, ...options });
    running.push(sandbox);
    return sandbox;
  };

  beforeEach(() => {
    stateFile = join(mkdtempSync(join(tmpdir(), 'einvoice-sandbox-')), 'nested', 'state.json');
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
  });

  it('keeps invoices, outbox, clock and numbering across a restart', async () => {
    const first = await start({ token: 't1' });
    const number = await createInvoice(first, 'single', singleInvoice());
    await call(first, 'POST', `/__sandbox/invoices/${number}/pay`);
    await call(first, 'POST', '/__sandbox/clock', { body: { advance: '10d' } });
    await first.close();

    const second = await start({ token: 't2', demo: true });
    const { invoices } = (await call(second, 'GET', '/__sandbox/invoices')).body;
    expect(
      invoices.map((invoice: { invoiceNumber: string; status: string }) => [invoice.invoiceNumber, invoice.status]),
    ).toEqual([[number, 'PAID']]);
    expect((await call(second, 'GET', '/__sandbox/outbox')).body.messages).toHaveLength(1);
    const clock = (await call(second, 'GET', '/__sandbox/clock')).body;
    expect(Date.parse(clock.now) - Date.now()).toBeGreaterThan(9 * 86_400_000);
    expect(await createInvoice(second, 'single', singleInvoice())).toBe('1000002');
    expect(JSON.parse(await readFile(stateFile, 'utf8')).invoices).toHaveLength(2);
  });

  it('starts a new state, with the demo invoices when asked, when the file is empty', async () => {
    await start();
    await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
    await writeFile(stateFile, '');
    const sandbox = await start({ demo: true });
    expect((await call(sandbox, 'GET', '/__sandbox/invoices')).body.invoices.length).toBeGreaterThan(0);
  });

  it('removes the half-written copies a killed process left beside the file, and nothing else', async () => {
    const first = await start();
    await createInvoice(first, 'single', singleInvoice());
    await first.close();
    const folder = dirname(stateFile);
    // What write-file-atomic leaves when the process is killed between creating its copy and renaming it.
    await writeFile(join(folder, 'state.json.2013851031'), '');
    await writeFile(join(folder, 'state.json.88'), '{"half":');
    await writeFile(join(folder, 'state.json.bak'), "the merchant's own");
    await start();
    expect((await readdir(folder)).sort()).toEqual(['state.json', 'state.json.bak']);
  });

  it('refuses a file that is not a sandbox state', async () => {
    await start();
    await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
    await writeFile(stateFile, '{"invoices": 3}');
    await expect(startSandbox({ stateFile })).rejects.toThrow(/not a sandbox state file/);
  });

  it('is shared by two sandboxes without losing or repeating anything', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    if (!a || !b) throw new Error('not started');
    const perServer = 15;
    const creations = [a, b].flatMap((sandbox, server) =>
      Array.from({ length: perServer }, (_, i) =>
        createInvoice(sandbox, 'single', singleInvoice({ businessReference: `S${server}-${i}` })),
      ),
    );
    const numbers = await Promise.all(creations);
    expect(new Set(numbers).size).toBe(2 * perServer);

    for (const sandbox of [a, b]) {
      const { invoices } = (await call(sandbox, 'GET', '/__sandbox/invoices')).body;
      expect(invoices.map((invoice: { invoiceNumber: string }) => invoice.invoiceNumber).sort()).toEqual(
        [...numbers].sort(),
      );
      const stats = (await call(sandbox, 'GET', '/invoice-api/invoices/statistics')).body;
      expect(stats.allInvoices.totalCount).toBe(2 * perServer);
    }
  });

  it('applies concurrent changes together, refusing only the one that breaks a rule', async () => {
    const sandbox = await start();
    const references = [...Array.from({ length: 40 }, (_, i) => `C-${i}`), 'C-7'];
    const answers = await Promise.all(
      references.map((businessReference) =>
        call(sandbox, 'POST', '/invoice-api/invoices/single', { body: singleInvoice({ businessReference }) }),
      ),
    );
    const created = answers.filter((answer) => answer.status === 201);
    expect(created).toHaveLength(40);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(refused).toHaveLength(1);
    expect(refused[0]?.status).toBe(409);
    expect(refused[0]?.body).toMatchObject({ code: 'DUPLICATE_INVOICE' });
    const numbers = created.map((answer) => String(answer.body));
    expect(new Set(numbers).size).toBe(40);
    const saved = JSON.parse(await readFile(stateFile, 'utf8')) as { invoices: { invoiceNumber: string }[] };
    expect(saved.invoices.map((invoice) => invoice.invoiceNumber).sort()).toEqual(numbers.sort());
  });

  it('lets one sandbox see what the other changed, and rejects a duplicate made on the other', async () => {
    const a = await start();
    const b = await start();
    const number = await createInvoice(a, 'single', singleInvoice({ businessReference: 'SHARED' }));
    const paid = await call(b, 'POST', `/__sandbox/invoices/${number}/pay`);
    expect(paid.body.status).toBe('PAID');
    const refund = { amount: 10, reason: 'r', orderReferenceNumber: paid.body.orderReferenceNumber };
    expect((await call(a, 'POST', `/invoice-api/invoices/${number}/refund`, { body: refund })).status).toBe(200);
    const duplicate = await call(b, 'POST', '/invoice-api/invoices/single', {
      body: singleInvoice({ businessReference: 'SHARED' }),
    });
    expect(duplicate.body).toMatchObject({ code: 'DUPLICATE_INVOICE', invoiceNumber: number });
    expect((await call(b, 'GET', '/invoice-api/invoices/statistics')).body.refundedInvoices.totalCount).toBe(1);
  });
});
