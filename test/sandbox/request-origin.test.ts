import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { untrustedRequestProblem } from '../../src/sandbox/request-origin.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

// The sandbox trusts only its own machine: a Host naming it (DNS rebinding names another), and, on every request
// that changes state, no other site's Origin and no body type an HTML form can send.

const local = { address: '127.0.0.1', port: 4010 };

describe('untrustedRequestProblem', () => {
  it.each([
    ['GET', { host: '127.0.0.1:4010' }],
    ['GET', { host: 'localhost:4010' }],
    ['GET', { host: '[::1]:4010' }],
    ['POST', { host: '127.0.0.1:4010' }], // the CLI: no Origin
    ['POST', { host: '127.0.0.1:4010', 'content-type': 'application/json' }],
    ['POST', { host: '127.0.0.1:4010', origin: 'http://127.0.0.1:4010' }], // a page the sandbox serves
    ['POST', { host: 'localhost:4010', origin: 'http://localhost:4010', 'sec-fetch-site': 'same-origin' }],
    ['GET', { host: '127.0.0.1:4010', origin: 'http://evil.example' }], // reads change nothing
  ])('%s %j is answered', (method, headers) => {
    expect(untrustedRequestProblem({ method, headers }, local)).toBeUndefined();
  });

  it.each([
    ['GET', { host: 'rebind.evil.example:4010' }, 403],
    ['POST', { host: 'rebind.evil.example:4010' }, 403],
    ['GET', {}, 403],
    ['GET', { host: '127.0.0.1:9999' }, 403],
    ['GET', { host: '127.0.0.1' }, 403],
    ['GET', { host: 'user@127.0.0.1:4010' }, 403],
    ['GET', { host: '10.0.0.5:4010' }, 403],
    ['POST', { host: '127.0.0.1:4010', origin: 'http://evil.example' }, 403],
    ['POST', { host: '127.0.0.1:4010', origin: 'null' }, 403],
    ['POST', { host: '127.0.0.1:4010', origin: 'http://127.0.0.1:8080' }, 403],
    ['POST', { host: '127.0.0.1:4010', origin: 'https://127.0.0.1:4010' }, 403],
    ['POST', { host: '127.0.0.1:4010', 'sec-fetch-site': 'cross-site' }, 403],
    ['POST', { host: '127.0.0.1:4010', 'content-type': 'text/plain' }, 415],
    ['POST', { host: '127.0.0.1:4010', 'content-type': 'application/x-www-form-urlencoded' }, 415],
    ['POST', { host: '127.0.0.1:4010', 'content-type': 'multipart/form-data; boundary=x' }, 415],
  ])('%s %j is refused with %d', (method, headers, status) => {
    expect(untrustedRequestProblem({ method, headers }, local)?.status).toBe(status);
  });

  it('a sandbox listening on another interface also answers its own address', () => {
    const lan = { address: '192.168.1.20', port: 4010 };
    expect(untrustedRequestProblem({ method: 'GET', headers: { host: '192.168.1.20:4010' } }, lan)).toBeUndefined();
    expect(untrustedRequestProblem({ method: 'GET', headers: { host: 'box.lan:4010' } }, lan)?.status).toBe(403);
  });
});

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
  await sandbox.api.createInvoice();
});
afterAll(() => sandbox.close());

/** Sends a request with exactly these headers (fetch would not let a test set Host). */
function send(method: string, path: string, headers: Record<string, string>, body?: string) {
  const url = new URL(sandbox.url);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the served sandbox', () => {
  const host = () => new URL(sandbox.url).host;

  it('refuses POST /__sandbox/reset from another site, and keeps its state', async () => {
    const answer = await send('POST', '/__sandbox/reset', { host: host(), origin: 'http://evil.example' });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'FORBIDDEN' });
    expect(await sandbox.api.invoices()).toHaveLength(1);
  });

  it('refuses a form post to reset, and keeps its state', async () => {
    const answer = await send('POST', '/__sandbox/reset', {
      host: host(),
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(answer.status).toBe(415);
    expect(await sandbox.api.invoices()).toHaveLength(1);
  });

  it('refuses to mint a token for a DNS-rebound Host', async () => {
    const port = new URL(sandbox.url).port;
    const answer = await send(
      'POST',
      '/__sandbox/tokens',
      {
        host: `rebind.evil.example:${port}`,
        'content-type': 'application/json',
      },
      '{}',
    );
    expect(answer.status).toBe(403);
    expect(answer.body).not.toContain('token"');
  });

  it('answers the CLI (no Origin) and a page of its own origin', async () => {
    const own = await send(
      'POST',
      '/__sandbox/tokens',
      {
        host: host(),
        origin: sandbox.url,
        'content-type': 'application/json',
      },
      '{}',
    );
    expect(own.status).toBe(200);
    const cli = await send('POST', '/__sandbox/reset', { host: host(), 'content-type': 'application/json' }, '{}');
    expect(cli.status).toBe(200);
    expect(await sandbox.api.invoices()).toHaveLength(0);
  });
});
