import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type ClientOptions } from '../../src/api/client.js';
import { AuthError, ServiceRejectedError, ServiceUnavailableError, UsageError } from '../../src/errors.js';
import { singleInvoiceSchema, validate, type Invoice } from '../../src/schemas/index.js';
import { version } from '../../src/version.js';
import {
  sampleStatistics,
  sendJson,
  startTestServer,
  statisticsPath,
  unusedPort,
  type TestHandler,
  type TestServer,
} from '../helpers/http-server.js';
import { singleInvoice } from '../schemas/fixtures.js';

const token = 'client-test-token-0123456789';
const servers: TestServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(handler: TestHandler): Promise<TestServer> {
  const server = await startTestServer(handler);
  servers.push(server);
  return server;
}

function clientFor(server: TestServer, options: Partial<ClientOptions> = {}) {
  return createClient({ baseUrl: server.url, token, environment: 'local', ...options });
}

function invoice(): Invoice {
  const result = validate(singleInvoiceSchema, singleInvoice());
  if (!result.success) throw new Error(JSON.stringify(result.issues));
  return result.data;
}

/** Answers a create with `status` and `body` written as is. */
function answer(status: number, body: string, headers: Record<string, string> = {}): TestHandler {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(body);
  };
}

describe('createInvoice', () => {
  it('keeps a bare invoice number past 2^53 digit for digit', async () => {
    const server = await serve(answer(201, '12345678901234567890'));
    await expect(clientFor(server).createInvoice('single', invoice())).resolves.toEqual({
      invoiceNumber: '12345678901234567890',
    });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/invoice-api/invoices/single' });
    expect(server.requests[0]?.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual(invoice());
  });

  it('reads an invoice number sent as a JSON string', async () => {
    const server = await serve(answer(201, '"INV-0042"'));
    await expect(clientFor(server).createInvoice('recurring', invoice())).resolves.toEqual({
      invoiceNumber: 'INV-0042',
    });
    expect(server.requests[0]?.path).toBe('/invoice-api/invoices/recurring');
  });

  it('turns a 400 with field errors into a ServiceRejectedError carrying them', async () => {
    const body = {
      code: 'VALIDATION_FAILED',
      message: 'The request is not valid: check customer.mobile.',
      errors: [{ field: 'customer.mobile', message: 'must be a mobile number' }],
    };
    const server = await serve((_request, response) => sendJson(response, 400, body));
    const error = await clientFor(server)
      .createInvoice('single', invoice())
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceRejectedError);
    expect(error).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      exitCode: 4,
      issues: [{ path: 'customer.mobile', message: 'must be a mobile number' }],
    });
    expect((error as Error).message).toContain('The request is not valid: check customer.mobile.');
  });

  it('names the existing invoice of a 409 DUPLICATE_INVOICE', async () => {
    const body = { status: 409, code: 'DUPLICATE_INVOICE', message: 'Already issued.', invoiceNumber: '1000042' };
    const server = await serve((_request, response) => sendJson(response, 409, body));
    const error = await clientFor(server)
      .createInvoice('single', invoice())
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceRejectedError);
    expect(error).toMatchObject({ status: 409, code: 'DUPLICATE_INVOICE', existingInvoiceNumber: '1000042' });
  });

  it('never retries a POST, even on a 503 (it may have been committed)', async () => {
    const server = await serve((_request, response) => sendJson(response, 503, { message: 'busy' }));
    const error = await clientFor(server)
      .createInvoice('single', invoice())
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({ status: 503, mayHaveReachedService: true, exitCode: 5 });
    expect(server.requests).toHaveLength(1);
  });

  it('fails with an unexpected response when the body is not an invoice number', async () => {
    const server = await serve(answer(201, '{"id":1}'));
    await expect(clientFor(server).createInvoice('single', invoice())).rejects.toMatchObject({
      exitCode: 5,
      message: expect.stringContaining('not an invoice number'),
    });
    // A 304 is a 3xx like any redirect: not a creation, refused as not done by the service.
    const notModified = await serve(answer(304, ''));
    await expect(clientFor(notModified).createInvoice('single', invoice())).rejects.toMatchObject({ exitCode: 4 });
  });

  it('works as a function of its own, taken off the client', async () => {
    const server = await serve(answer(201, '1000001'));
    const { createInvoice } = clientFor(server);
    await expect(createInvoice('single', invoice())).resolves.toEqual({ invoiceNumber: '1000001' });
  });

  it('turns a 401 into an AuthError, as for any request', async () => {
    const server = await serve((_request, response) => sendJson(response, 401, { message: 'expired' }));
    const error = await clientFor(server, { tokenHint: 'Set EINVOICE_TOKEN.' })
      .createInvoice('single', invoice())
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ exitCode: 3, hint: 'Set EINVOICE_TOKEN.' });
  });

  it('passes on the error of a token that cannot be read, sending nothing', async () => {
    const server = await serve(answer(201, '1000001'));
    const noToken = new AuthError('No token for the local environment.');
    const error = await clientFor(server, { token: () => Promise.reject(noToken) })
      .createInvoice('single', invoice())
      .catch((caught: unknown) => caught);
    expect(error).toBe(noToken);
    expect(server.requests).toHaveLength(0);
  });

  it('reports a time-out and a dropped connection as having maybe reached the service', async () => {
    const silent = await serve(() => undefined);
    const timedOut = await clientFor(silent, { timeoutMs: 200 })
      .createInvoice('single', invoice())
      .catch((caught: unknown) => caught);
    expect(timedOut).toBeInstanceOf(ServiceUnavailableError);
    expect(timedOut).toMatchObject({ mayHaveReachedService: true, exitCode: 5 });
    expect((timedOut as Error).message).toContain('did not answer in time');

    const dropping = await serve((_request, response) => {
      response.socket?.destroy();
    });
    const dropped = await clientFor(dropping)
      .createInvoice('single', invoice())
      .catch((caught: unknown) => caught);
    expect(dropped).toBeInstanceOf(ServiceUnavailableError);
    expect(dropped).toMatchObject({ mayHaveReachedService: true, exitCode: 5 });
    expect((dropped as Error).message).toContain('the connection was dropped');
  });

  it('logs the request and the answer without the token', async () => {
    const server = await serve(answer(201, '1000001'));
    const lines: string[] = [];
    await clientFor(server, { log: (line) => lines.push(line) }).createInvoice('single', invoice());
    const [request = '', status = '', response = ''] = lines;
    expect(request.split('\n')).toEqual(
      expect.arrayContaining([
        `> POST ${server.url}/invoice-api/invoices/single`,
        '> authorization: *** (redacted)',
        '> content-type: application/json',
        `> ${JSON.stringify(invoice())}`,
      ]),
    );
    expect(status).toMatch(new RegExp(`^< 201 Created \\(\\d+ ms\\) POST ${server.url}/invoice-api/invoices/single$`));
    expect(response.split('\n')).toEqual(expect.arrayContaining(['< 1000001']));
    expect(lines.join('\n')).not.toContain(token);
  });
});

describe('getStatistics', () => {
  it('sends the token as a bearer and identifies itself as einvoice/<version>', async () => {
    const server = await serve((_request, response) => sendJson(response, 200, sampleStatistics()));
    await expect(clientFor(server).getStatistics()).resolves.toEqual(sampleStatistics());
    const headers = server.requests[0]?.headers;
    expect(headers?.authorization).toBe(`Bearer ${token}`);
    expect(headers?.['user-agent']).toBe(`einvoice/${version}`);
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: statisticsPath });
  });

  it('retries a GET answered 429 with Retry-After: 0', async () => {
    const server = await serve((_request, response, index) =>
      index === 0
        ? sendJson(response, 429, { message: 'slow down' }, { 'retry-after': '0' })
        : sendJson(response, 200, sampleStatistics()),
    );
    await expect(clientFor(server).getStatistics()).resolves.toEqual(sampleStatistics());
    expect(server.requests).toHaveLength(2);
  });

  it('falls back to /invoice-api/invoice-statistics when the first path answers 404', async () => {
    const server = await serve((request, response) =>
      request.path === statisticsPath
        ? sendJson(response, 404, { message: 'no such path' })
        : sendJson(response, 200, sampleStatistics()),
    );
    await expect(clientFor(server).getStatistics()).resolves.toEqual(sampleStatistics());
    expect(server.requests.map((request) => request.path)).toEqual([statisticsPath, '/invoice-api/invoice-statistics']);
  });

  it('turns a 401 into an AuthError naming the environment and how to set its token', async () => {
    const server = await serve((_request, response) => sendJson(response, 401, { message: 'expired' }));
    const error = await clientFor(server, { tokenHint: 'Set EINVOICE_TOKEN.' })
      .getStatistics()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ exitCode: 3, hint: 'Set EINVOICE_TOKEN.' });
    expect((error as Error).message).toContain('local environment');
  });

  it('passes on the error of a token that cannot be read, sending nothing', async () => {
    const server = await serve((_request, response) => sendJson(response, 200, sampleStatistics()));
    const noToken = new AuthError('No token for the local environment.');
    const error = await clientFor(server, { token: () => Promise.reject(noToken) })
      .getStatistics()
      .catch((caught: unknown) => caught);
    expect(error).toBe(noToken);
    expect(server.requests).toHaveLength(0);
  });

  it('rejects statistics without the documented shape', async () => {
    const server = await serve((_request, response) => sendJson(response, 200, { allInvoices: { totalCount: 1 } }));
    await expect(clientFor(server).getStatistics()).rejects.toMatchObject({
      exitCode: 5,
      message: expect.stringContaining('documented shape'),
    });
  });

  it('reports a refused connection as never having reached the service', async () => {
    const port = await unusedPort();
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, token, getRetries: 0 });
    const error = await client.getStatistics().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({ mayHaveReachedService: false, exitCode: 5 });
    expect((error as Error).message).toContain('connection refused');
  });

  it('does not follow a redirect to another origin: refused, naming it, nothing sent there', async () => {
    const other = await serve((_request, response) => sendJson(response, 200, sampleStatistics()));
    const server = await serve((request, response) => {
      response.writeHead(302, { location: `${other.url}${request.path}` });
      response.end();
    });
    await expect(clientFor(server).getStatistics()).rejects.toMatchObject({
      exitCode: 4,
      status: 302,
      message: expect.stringContaining(`a redirect to ${other.url}${statisticsPath}`),
    });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${token}`);
    expect(other.requests).toEqual([]);
  });

  it('logs each request and response without the token', async () => {
    const server = await serve((_request, response) => sendJson(response, 200, sampleStatistics()));
    const lines: string[] = [];
    await clientFor(server, { log: (line) => lines.push(line) }).getStatistics();
    expect(lines[0]?.split('\n')[0]).toBe(`> GET ${server.url}${statisticsPath}`);
    expect(lines[0]).toContain('> authorization: *** (redacted)');
    expect(lines[1]).toMatch(/^< 200 OK/);
    expect(lines[2]).toContain(`< ${JSON.stringify(sampleStatistics())}`);
    expect(lines.join('\n')).not.toContain(token);
  });
});

describe('refundInvoice and the base URL', () => {
  it('posts the refund as JSON to the invoice path, reading a lazy token once', async () => {
    const server = await serve((_request, response) => sendJson(response, 200, {}));
    let reads = 0;
    const client = clientFor(server, { token: () => Promise.resolve((reads++, token)) });
    await client.refundInvoice('1000007', { amount: 150, reason: 'Damaged', orderReferenceNumber: '3712345' });
    await client.getStatistics().catch(() => undefined);
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/invoice-api/invoices/1000007/refund' });
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({
      amount: 150,
      reason: 'Damaged',
      orderReferenceNumber: '3712345',
    });
    expect(reads).toBe(1);
  });

  it('refuses an invoice number that would change the path, sending nothing', async () => {
    const server = await serve((_request, response) => sendJson(response, 200, {}));
    const refund = { amount: 1, reason: 'r', orderReferenceNumber: 'o' };
    await expect(clientFor(server).refundInvoice('../x', refund)).rejects.toBeInstanceOf(UsageError);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses plain http to another machine, and accepts it on loopback', async () => {
    expect(() => createClient({ baseUrl: 'http://invoices.example.com', token })).toThrow(UsageError);
    expect(() => createClient({ baseUrl: 'http://invoices.example.com', token })).toThrow(/plain http/);
    expect(() => createClient({ baseUrl: 'ftp://invoices.example.com', token })).toThrow(UsageError);
    expect(createClient({ baseUrl: 'http://localhost:4010', token }).baseUrl).toBe('http://localhost:4010/');
    expect(createClient({ baseUrl: 'https://invoices.example.com/api', token }).baseUrl).toBe(
      'https://invoices.example.com/api/',
    );
  });
});
