import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxAdmin } from '../../src/api/sandbox-admin.js';
import { ServiceRejectedError, ServiceUnavailableError } from '../../src/errors.js';
import { startTestServer, unusedPort } from '../helpers/http-server.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

describe('createSandboxAdmin', () => {
  let sandbox: TestSandbox;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.close());

  it('pays and cancels unpaid invoices', async () => {
    const admin = createSandboxAdmin(sandbox.url);
    const toPay = await sandbox.api.createInvoice({ amount: 10 });
    const paid = await admin.pay(toPay);
    expect(paid).toMatchObject({ invoiceNumber: toPay, status: 'PAID', orderReferenceNumber: expect.any(String) });
    const toCancel = await sandbox.api.createInvoice({ amount: 11 });
    await expect(admin.cancel(toCancel)).resolves.toEqual({ invoiceNumber: toCancel, status: 'CANCELED' });
    expect((await sandbox.api.invoice(toCancel))?.status).toBe('CANCELED');
  });

  it("turns the sandbox's refusal into a ServiceRejectedError with its message", async () => {
    const admin = createSandboxAdmin(sandbox.url);
    const { invoiceNumber } = await sandbox.api.createPaidInvoice({ amount: 12 });
    const error = await admin.pay(invoiceNumber).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceRejectedError);
    expect(error).toMatchObject({ status: 409, code: 'INVALID_STATE', exitCode: 4 });
    expect((error as Error).message).toContain(`Invoice ${invoiceNumber} is PAID`);
  });

  it('resets, moves the clock and lists the outbox', async () => {
    const admin = createSandboxAdmin(sandbox.url);
    await expect(admin.reset(false)).resolves.toEqual({ invoices: 0 });
    const invoiceNumber = await sandbox.api.createInvoice({ amount: 13 });
    const clock = await admin.advanceClock('400d');
    expect(clock.expired).toEqual([invoiceNumber]);
    expect(Date.parse(clock.now)).toBeGreaterThan(Date.now() + 399 * 86_400_000);
    const { messages } = await admin.outbox();
    expect(messages.map((message) => message.invoiceNumber)).toContain(invoiceNumber);
  });

  it('says a server without the admin API is not a sandbox (exit 2)', async () => {
    const server = await startTestServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/html' });
      response.end('<h1>Not Found</h1>');
    });
    try {
      await expect(createSandboxAdmin(server.url).reset(true)).rejects.toMatchObject({
        exitCode: 2,
        message: `${server.url} is not a sandbox: it has no admin API.`,
      });
    } finally {
      await server.close();
    }
  });

  it('reports a sandbox that is not running as unavailable', async () => {
    const admin = createSandboxAdmin(`http://127.0.0.1:${await unusedPort()}`);
    const error = await admin.outbox().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({ mayHaveReachedService: false });
  });
});
