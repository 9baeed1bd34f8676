import { mkdtempSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseSync } from 'node:sqlite';
import { LocalFileError } from '../../src/errors.js';
import { exportSandboxState, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { emptyState } from '../../src/sandbox/state.js';
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
    expect((await readFile(stateFile)).subarray(0, 16).toString('latin1')).toBe('SQLite format 3\u0000');
  });

  it('starts a new state, with the demo invoices when asked, when the file is empty', async () => {
    await start();
    await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
    await writeFile(stateFile, '');
    const sandbox = await start({ demo: true });
    expect((await call(sandbox, 'GET', '/__sandbox/invoices')).body.invoices.length).toBeGreaterThan(0);
  });

  it("is the user's alone, with its folder and the files SQLite keeps beside it", async () => {
    const sandbox = await start();
    await createInvoice(sandbox, 'single', singleInvoice());
    const folder = dirname(stateFile);
    const names = await readdir(folder);
    expect(names.sort()).toEqual(['state.json', 'state.json-shm', 'state.json-wal']);
    for (const name of names) expect((await stat(join(folder, name))).mode & 0o777, name).toBe(0o600);
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
  });

  it('makes a state file that others could read private before it holds an invoice', async () => {
    await mkdir(dirname(stateFile), { recursive: true });
    await writeFile(stateFile, '', { mode: 0o644 });
    await chmod(stateFile, 0o644);
    await start();
    expect((await stat(stateFile)).mode & 0o777).toBe(0o600);
  });

  it('refuses a file that is not a sandbox database, naming it, and leaves it as it was', async () => {
    await mkdir(dirname(stateFile), { recursive: true });
    const exported = JSON.stringify(emptyState('1000001'), null, 2);
    const others: [string, string | Buffer][] = [
      ['the JSON of sandbox export', exported],
      ['text', 'hello\n'],
      ['garbage', Buffer.from([0x00, 0xff, 0x13, 0x37, 0x42])],
    ];
    for (const [kind, content] of others) {
      await writeFile(stateFile, content, { mode: 0o644 });
      await chmod(stateFile, 0o644);
      const refusal = await startSandbox({ stateFile }).catch((error: unknown) => error);
      expect(refusal, kind).toBeInstanceOf(LocalFileError);
      expect((refusal as Error).message, kind).toBe(
        `The sandbox's state file ${stateFile} is not a database einvoice made: it is not a SQLite file.`,
      );
      expect(await readFile(stateFile), kind).toEqual(Buffer.from(content));
      expect((await stat(stateFile)).mode & 0o777, kind).toBe(0o644);
      expect(await readdir(dirname(stateFile)), kind).toEqual(['state.json']);
      await expect(exportSandboxState({ stateFile, write: async () => {} }), kind).rejects.toThrow(refusal as Error);
    }
  });

  it("refuses a SQLite database that is not the sandbox's", async () => {
    await mkdir(dirname(stateFile), { recursive: true });
    const other = new DatabaseSync(stateFile);
    other.exec('CREATE TABLE notes (text)');
    other.close();
    await expect(startSandbox({ stateFile })).rejects.toThrow(
      `The sandbox's state file ${stateFile} is not a database einvoice made: it is the SQLite database of another program.`,
    );
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
    await sandbox.close();
    const reopened = await start();
    const saved = (await call(reopened, 'GET', '/__sandbox/invoices')).body as {
      invoices: { invoiceNumber: string }[];
    };
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

describe('sandbox export', () => {
  it('prints the state as JSON.stringify(state, null, 2): invoices, outbox, counters, no tokens', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'einvoice-sandbox-')), 'state.sqlite');
    const sandbox = await startSandbox({ stateFile: file });
    const number = await createInvoice(sandbox, 'single', singleInvoice({ businessReference: 'OLD-1' }));
    await call(sandbox, 'POST', `/__sandbox/invoices/${number}/pay`);
    await call(sandbox, 'POST', '/__sandbox/clock', { body: { advance: '2d' } });
    await sandbox.close();
    let json = '';
    await exportSandboxState({ stateFile: file, write: async (piece) => void (json += piece) });
    expect(json).toBe(`${JSON.stringify(JSON.parse(json), null, 2)}\n`);
    expect(JSON.parse(json)).toMatchObject({
      version: 1,
      nextInvoiceNumber: '1000002',
      invoices: [{ invoiceNumber: '1000001', status: 'PAID', request: { businessReference: 'OLD-1' } }],
      outbox: [{ invoiceNumber: '1000001' }],
      tokens: [],
    });
  });
});

describe('readers and writers', () => {
  it('answer a reader at once while another connection holds a write transaction open', async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'einvoice-sandbox-')), 'state.sqlite');
    const sandbox = await startSandbox({ stateFile, demo: true, ui: true });
    const writer = new DatabaseSync(stateFile);
    try {
      writer.exec('BEGIN IMMEDIATE');
      writer.exec("UPDATE invoices SET status = 'PAID'");
      // Each of these would wait for the writer (and fail after the busy timeout) if a reader took the write lock.
      const stats = await call(sandbox, 'GET', '/invoice-api/invoices/statistics');
      expect(stats.body.paidInvoices.totalCount).toBe(2);
      expect((await call(sandbox, 'GET', '/__sandbox/invoices')).body.invoices).toHaveLength(8);
      expect((await call(sandbox, 'GET', '/__sandbox/dashboard')).status).toBe(200);
      expect((await call(sandbox, 'GET', '/__sandbox/outbox')).status).toBe(200);
      writer.exec('ROLLBACK');
    } finally {
      writer.close();
      await sandbox.close();
    }
  });
});
