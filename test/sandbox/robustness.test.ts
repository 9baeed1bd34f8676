import { DatabaseSync } from 'node:sqlite';
import { mkdtempSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serviceErrorSchema } from '../../src/schemas/index.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { isLoopback } from '../../src/schemas/loopback.js';
import { call, rawRequest, singleInvoice, useSandbox } from './support.js';

const createPath = '/invoice-api/invoices/single';

/** Sends raw bytes on a new connection and collects whatever comes back until the server closes it. */
function rawExchange(sandbox: RunningSandbox, bytes: string, options: { hangUp?: boolean } = {}): Promise<string> {
  const { hostname, port } = new URL(sandbox.url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => {
      if (options.hangUp) socket.write(bytes, () => socket.destroy());
      else socket.end(bytes);
    });
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => resolve(received));
    socket.on('close', () => resolve(received));
  });
}

/** Streams a chunked body until the server answers; resolves with the status it answered. */
function streamUntilAnswered(sandbox: RunningSandbox): Promise<number | string> {
  return new Promise((resolve) => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const req = rawRequestStream(sandbox);
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      resolve(res.statusCode ?? 0);
      res.resume();
      req.destroy();
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (!answered) resolve(error.code ?? error.message);
    });
    const pump = () => {
      while (!answered && !req.destroyed && req.write(chunk));
      if (!answered && !req.destroyed) req.once('drain', pump);
    };
    pump();
  });
}

function rawRequestStream(sandbox: RunningSandbox) {
  return httpRequest(`${sandbox.url}${createPath}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.token}`, 'content-type': 'application/json' },
  });
}

describe('robustness', () => {
  const sandbox = useSandbox();
  const auth = () => ({ authorization: `Bearer ${sandbox().token}` });

  /** The sandbox still answers normally. */
  async function expectAlive() {
    expect((await call(sandbox(), 'GET', '/invoice-api/invoices/statistics')).status).toBe(200);
  }

  function expectError(response: { status?: number; body: string }, status: number, code: string) {
    expect(response.status).toBe(status);
    const body = serviceErrorSchema.parse(JSON.parse(response.body));
    expect(body).toMatchObject({ status, code });
    expect(response.body).not.toMatch(/\n\s+at /);
    return body;
  }

  it('answers 415 to a body that is not sent as JSON', async () => {
    const response = await rawRequest(sandbox(), {
      method: 'POST',
      path: createPath,
      headers: { ...auth(), 'content-type': 'text/plain' },
      body: JSON.stringify(singleInvoice()),
    });
    expectError(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
    await expectAlive();
  });

  it.each([
    ['garbage', '{"customer": nope'],
    ['invalid UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d])],
    ['an empty body', ' '],
  ])('answers 400 MALFORMED_JSON to %s', async (_name, body) => {
    const response = await rawRequest(sandbox(), {
      method: 'POST',
      path: createPath,
      headers: { ...auth(), 'content-type': 'application/json; charset=utf-8' },
      body,
    });
    expectError(response, 400, 'MALFORMED_JSON');
    await expectAlive();
  });

  it.each(['[]', 'null', '"text"', '42', '{"customer":[],"items":"x","amount":"NaN"}', '{"__proto__":{"amount":1}}'])(
    'answers 400 VALIDATION_FAILED to the JSON %s',
    async (body) => {
      const response = await rawRequest(sandbox(), {
        method: 'POST',
        path: createPath,
        headers: { ...auth(), 'content-type': 'application/json' },
        body,
      });
      expectError(response, 400, 'VALIDATION_FAILED');
    },
  );

  it('answers 413 to a declared body over 1 MiB without reading it', async () => {
    const response = await rawRequest(sandbox(), {
      method: 'POST',
      path: createPath,
      headers: { ...auth(), 'content-type': 'application/json', 'content-length': 2 * 1024 * 1024 },
      body: '{"a":1}',
    });
    expectError(response, 413, 'PAYLOAD_TOO_LARGE');
    expect(response.headers?.connection).toBe('close');
    await expectAlive();
  });

  it('answers 413 to a streamed body once it passes 1 MiB, and closes the connection', async () => {
    expect(await streamUntilAnswered(sandbox())).toBe(413);
    await expectAlive();
  });

  it.each([
    '/invoice-api/invoices/..%2F..%2Fx/refund',
    '/invoice-api/invoices/%E0%A4%A/refund',
    '/invoice-api/invoices/%00/refund',
    '/invoice-api/invoices/single/',
    '/invoice-api//invoices/single',
    '/nothing-here',
    '/',
  ])('answers 404 JSON to %s', async (path) => {
    const response = await rawRequest(sandbox(), {
      method: 'POST',
      path,
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 1, reason: 'r', orderReferenceNumber: '1' }),
    });
    expectError(response, 404, 'NOT_FOUND');
  });

  it('answers 405 with Allow on a known route', async () => {
    const response = await call(sandbox(), 'DELETE', createPath);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(serviceErrorSchema.parse(response.body).code).toBe('METHOD_NOT_ALLOWED');
    const statistics = await call(sandbox(), 'POST', '/invoice-api/invoice-statistics', { body: {} });
    expect(statistics.headers.get('allow')).toBe('GET');
  });

  it('answers 400 to bytes that are not HTTP, and keeps serving', async () => {
    const answer = await rawExchange(sandbox(), 'HELLO\r\n\r\n\x00\x01garbage');
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    serviceErrorSchema.parse(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)));
    await expectAlive();
  });

  it('survives a client that leaves in the middle of its body', async () => {
    const head = `POST ${createPath} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${sandbox().token}\r\n`;
    await rawExchange(sandbox(), `${head}content-type: application/json\r\ncontent-length: 1000\r\n\r\n{"cus`, {
      hangUp: true,
    });
    await expectAlive();
    expect((await call(sandbox(), 'GET', '/__sandbox/invoices')).body.invoices).toEqual([]);
  });
});

describe('unexpected failures', () => {
  it('answer 500 JSON without a stack trace', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'einvoice-sandbox-'));
    const stateFile = join(folder, 'state.json');
    const errors: unknown[] = [];
    const sandbox = await startSandbox({
      stateFile,
      log: (event) => event.type === 'error' && errors.push(event.error),
    });
    try {
      // Another program takes the table of invoices away under the sandbox.
      const other = new DatabaseSync(stateFile);
      other.exec('DROP TABLE invoices');
      other.close();
      const response = await call(sandbox, 'GET', '/invoice-api/invoices/statistics');
      expect(response.status).toBe(500);
      expect(serviceErrorSchema.parse(response.body)).toMatchObject({ status: 500, code: 'INTERNAL_ERROR' });
      expect(response.text).not.toMatch(/state\.json|invoices|\bat\b.*:\d+/);
      expect(errors).toHaveLength(1);
    } finally {
      await sandbox.close();
    }
  });
});

describe('isLoopback', () => {
  it('accepts only addresses of this machine', () => {
    for (const address of ['127.0.0.1', '127.8.9.1', '::1', '::ffff:127.0.0.1']) expect(isLoopback(address)).toBe(true);
    for (const address of ['10.0.0.2', '192.168.1.1', '::ffff:10.0.0.1', 'fe80::1', '', undefined]) {
      expect(isLoopback(address)).toBe(false);
    }
  });
});
