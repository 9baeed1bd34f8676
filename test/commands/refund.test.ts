import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startTestServer, type TestHandler, type TestServer } from '../helpers/http-server.js';
import { localProfile, writeProfile } from '../helpers/profile.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { type InProcessOptions, runInProcess } from '../helpers/in-process.js';
import { tempHome } from '../helpers/home.js';
import { newToken } from '../helpers/secrets.js';

const stubToken = newToken('refund-stub');
const servers: TestServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A server that records each request; by default it fails any, so tests that expect none see them. */
async function serve(handler?: TestHandler): Promise<TestServer> {
  const server = await startTestServer(handler);
  servers.push(server);
  return server;
}

/** Accepts a refund the way the service documents it: 200 with an empty object. */
const acceptRefund: TestHandler = (_request, response) => sendJson(response, 200, {});

function homeFor(baseUrl: string, token = stubToken): string {
  const home = tempHome();
  writeProfile(home, localProfile(baseUrl, token));
  return home;
}

function refund(home: string, args: string[], options: InProcessOptions = {}) {
  return runInProcess(['refund', ...args], { ...options, env: { HOME: home, ...options.env } });
}

describe('refund against a served sandbox', () => {
  let sandbox: TestSandbox;
  let home: string;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    home = homeFor(sandbox.url, sandbox.token);
  });
  afterAll(() => sandbox.close());

  it('refunds a paid invoice and confirms on one line', async () => {
    const { invoiceNumber, orderReferenceNumber } = await sandbox.api.createPaidInvoice({ amount: 1234.5 });
    const args = [invoiceNumber, '--amount', '1234.5', '--reason', 'Damaged item', '--order-ref', orderReferenceNumber];
    const result = await refund(home, [...args, '--yes']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`✔ Refunded 1,234.50 of invoice ${invoiceNumber} (local).\n`);
    expect(result.stdout, 'a refund makes no number for a script').toBe('');
    const stored = await sandbox.api.invoice(invoiceNumber);
    expect(stored?.status).toBe('REFUNDED');
    expect((stored as unknown as { refunds: unknown[] }).refunds).toEqual([
      expect.objectContaining({ amount: 1234.5, reason: 'Damaged item', orderReferenceNumber }),
    ]);
  });

  it('prints the outcome as JSON with --json', async () => {
    const { invoiceNumber, orderReferenceNumber } = await sandbox.api.createPaidInvoice({ amount: 80 });
    const args = [invoiceNumber, '--amount', '30', '--reason', 'Late', '--order-ref', orderReferenceNumber, '--yes'];
    const result = await refund(home, [...args, '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ invoiceNumber, refunded: true, amount: 30 });
    expect((await sandbox.api.invoice(invoiceNumber))?.status).toBe('REFUNDED');
  });

  it('exits 4 with the service message when the invoice is not paid', async () => {
    const invoiceNumber = await sandbox.api.createInvoice({ amount: 50 });
    const args = [invoiceNumber, '--amount', '50', '--reason', 'Late', '--order-ref', '3700001', '--yes'];
    const result = await refund(home, args);
    expect(result.code, result.stderr).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      `The service rejected the request (HTTP 400): Invoice ${invoiceNumber} is UNPAID; only a PAID invoice can be refunded.`,
    );
    expect((await sandbox.api.invoice(invoiceNumber))?.status).toBe('UNPAID');
  });
});

describe('refund input', () => {
  it('lists every missing field and sends nothing when there is no terminal to ask on', async () => {
    const server = await serve();
    const result = await refund(homeFor(server.url), ['1000007', '--yes']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('The refund of invoice 1000007 is incomplete or invalid; nothing was sent.');
    expect(result.stderr).toContain('amount (--amount): is required');
    expect(result.stderr).toContain('reason (--reason): is required');
    expect(result.stderr).toContain('orderReferenceNumber (--order-ref): is required');
    expect(server.requests).toHaveLength(0);
  });

  it('shows the request with --dry-run, token redacted, and sends nothing', async () => {
    const server = await serve();
    const args = ['1000007', '--amount', '150', '--reason', 'Damaged item', '--order-ref', '3712345', '--dry-run'];
    const result = await refund(homeFor(server.url), args);
    expect(result.code, result.stderr).toBe(0);
    const [requestLine, authorization, contentType, blank, ...body] = result.stdout.trimEnd().split('\n');
    expect(requestLine).toBe(`POST ${server.url}/invoice-api/invoices/1000007/refund`);
    expect(authorization).toBe('Authorization: Bearer ***');
    expect(contentType).toBe('Content-Type: application/json');
    expect(blank).toBe('');
    expect(JSON.parse(body.join('\n'))).toEqual({
      amount: 150,
      reason: 'Damaged item',
      orderReferenceNumber: '3712345',
    });
    expect(server.requests).toHaveLength(0);
  });

  it('refuses to refund without --yes when there is no terminal, sending nothing', async () => {
    const server = await serve();
    const args = ['1000007', '--amount', '150', '--reason', 'Damaged item', '--order-ref', '3712345'];
    const result = await refund(homeFor(server.url), args);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(
      'A refund needs confirmation, and this run cannot ask (no terminal, CI, or --no-input): nothing was sent.',
    );
    expect(result.stderr).toContain('--yes');
    expect(server.requests).toHaveLength(0);
  });

  it('refuses an invoice number that is not one, sending nothing', async () => {
    const server = await serve();
    const args = ['../x', '--amount', '150', '--reason', 'Damaged item', '--order-ref', '3712345', '--yes'];
    const result = await refund(homeFor(server.url), args);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('"../x" is not an invoice number; nothing was sent.');
    expect(server.requests).toHaveLength(0);
  });

  it('reads the refund from --file, with flags winning over the file', async () => {
    const server = await serve(acceptRefund);
    const home = homeFor(server.url);
    const file = { amount: '99.5', reason: 'From the file', orderReferenceNumber: '3700001' };
    writeFileSync(join(home, 'refund.json'), JSON.stringify(file));
    const result = await refund(home, ['1000007', '--file', 'refund.json', '--reason', 'From a flag', '--yes']);
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/invoice-api/invoices/1000007/refund' });
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({
      amount: 99.5,
      reason: 'From a flag',
      orderReferenceNumber: '3700001',
    });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${stubToken}`);
  });

  it('reads the refund from stdin with --file -, with flags winning over it', async () => {
    const server = await serve(acceptRefund);
    const input = JSON.stringify({ amount: 10, reason: 'From stdin', orderReferenceNumber: '3700002' });
    const result = await refund(homeFor(server.url), ['1000008', '--file', '-', '--amount', '7.25', '--yes'], {
      input,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('✔ Refunded 7.25 of invoice 1000008 (local).\n');
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({
      amount: 7.25,
      reason: 'From stdin',
      orderReferenceNumber: '3700002',
    });
  });

  it('rejects a file with a field the refund does not have, sending nothing', async () => {
    const server = await serve();
    const home = homeFor(server.url);
    const file = { amount: 5, reason: 'r', orderReferenceNumber: '1', note: 'extra' };
    writeFileSync(join(home, 'refund.json'), JSON.stringify(file));
    const result = await refund(home, ['1000007', '--file', 'refund.json', '--yes']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('note');
    expect(server.requests).toHaveLength(0);
  });
});
