import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { ServiceRejectedError, ServiceUnavailableError } from '../../src/errors.js';
import { sendJson, startTestServer, type TestHandler, type TestServer } from '../helpers/http-server.js';

// How the client words each failure of a real HTTP exchange (src/api/service-errors.ts).

const token = 'service-errors-token-0123456789';
const refund = { amount: 5, reason: 'Late', orderReferenceNumber: '3700001' };
const servers: TestServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function clientAnswering(handler: TestHandler, timeoutMs?: number) {
  const server = await startTestServer(handler);
  servers.push(server);
  return { server, client: createClient({ baseUrl: server.url, token, timeoutMs, getRetries: 0 }) };
}

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error as Error,
  );
}

describe('toServiceError', () => {
  it('shows the text of an HTML error page, without its tags', async () => {
    const { client, server } = await clientAnswering((_request, response) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
    });
    const error = await failureOf(client.refundInvoice('1000001', refund));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error.message).toBe(`The service at ${server.url} is unavailable (HTTP 502: 502 Bad Gateway).`);
  });

  it('keeps the Retry-After of a 503 in milliseconds', async () => {
    const { client } = await clientAnswering((_request, response) =>
      sendJson(response, 503, { message: 'maintenance' }, { 'retry-after': '120' }),
    );
    const error = await failureOf(client.refundInvoice('1000001', refund));
    expect(error).toMatchObject({ status: 503, retryAfterMs: 120_000, mayHaveReachedService: true });
  });

  it('takes the message of a body that has `error` rather than `message`', async () => {
    const { client } = await clientAnswering((_request, response) => sendJson(response, 400, { error: 'Bad amount' }));
    const error = await failureOf(client.refundInvoice('1000001', refund));
    expect(error).toBeInstanceOf(ServiceRejectedError);
    expect(error.message).toBe('The service rejected the request (HTTP 400): Bad amount');
  });

  it('reads field errors given as `path` as well as `field`', async () => {
    const body = { message: 'Invalid', errors: [{ path: 'amount', message: 'too large' }, { message: 'no field' }] };
    const { client } = await clientAnswering((_request, response) => sendJson(response, 422, body));
    const error = await failureOf(client.refundInvoice('1000001', refund));
    expect(error).toMatchObject({
      status: 422,
      issues: [
        { path: 'amount', message: 'too large' },
        { path: '(request)', message: 'no field' },
      ],
    });
  });

  it('names the status when a refusal has no body', async () => {
    const { client } = await clientAnswering((_request, response) => {
      response.writeHead(403);
      response.end();
    });
    const error = await failureOf(client.refundInvoice('1000001', refund));
    expect(error).toBeInstanceOf(ServiceRejectedError);
    expect(error.message).toBe('The service rejected the request (HTTP 403): HTTP 403');
  });

  it('reports a service that does not answer in time as unavailable, effect unknown', async () => {
    // The server holds the request open; the client's own time-out ends it.
    const { client } = await clientAnswering(() => undefined, 200);
    const error = await failureOf(client.refundInvoice('1000001', refund));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({ mayHaveReachedService: true, hint: expect.stringContaining('--timeout') });
    expect(error.message).toContain('did not answer in time');
  });

  it('reports a dropped connection as one that may have reached the service', async () => {
    const { client } = await clientAnswering((_request, response) => {
      response.socket?.destroy();
    });
    const error = await failureOf(client.refundInvoice('1000001', refund));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({ mayHaveReachedService: true });
    expect(error.message).toContain('the connection was dropped');
  });
});
