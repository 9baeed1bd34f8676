import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { faultsInForceSchema, serviceErrorSchema } from '../../src/schemas/index.js';
import { startSandbox, type FaultKind, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { mulberry32 } from '../../src/sandbox/faults.js';
import { until } from '../bulk/helpers.js';
import { call, rawRequest, singleInvoice } from './support.js';

async function withSandbox(options: SandboxOptions, test: (sandbox: RunningSandbox) => Promise<void>) {
  const sandbox = await startSandbox(options);
  try {
    await test(sandbox);
  } finally {
    await sandbox.close();
  }
}

const createSingle = (sandbox: RunningSandbox) =>
  call(sandbox, 'POST', '/invoice-api/invoices/single', { body: singleInvoice() });
/** Creates an invoice over a raw connection, to see how the connection ends. */
const createRaw = (sandbox: RunningSandbox) =>
  rawRequest(sandbox, {
    method: 'POST',
    path: '/invoice-api/invoices/single',
    headers: { authorization: `Bearer ${sandbox.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(singleInvoice()),
  });
const invoicesOf = async (sandbox: RunningSandbox) =>
  (await call(sandbox, 'GET', '/__sandbox/invoices')).body.invoices as unknown[];

describe('fault injection', () => {
  it.each([
    ['500', 500, 'INTERNAL_ERROR', null],
    ['503', 503, 'SERVICE_UNAVAILABLE', '1'],
    ['429', 429, 'RATE_LIMITED', '1'],
  ] as const)('%s answers %i %s before the operation runs', async (kind, status, code, retryAfter) => {
    await withSandbox({ faults: { [kind]: 1 } }, async (sandbox) => {
      const response = await createSingle(sandbox);
      expect(response.status).toBe(status);
      expect(response.headers.get('retry-after')).toBe(retryAfter);
      expect(serviceErrorSchema.parse(response.body)).toMatchObject({ status, code });
      expect(response.text).not.toMatch(/at .*\.js/);
      expect(await invoicesOf(sandbox)).toEqual([]);
    });
  });

  it('drop closes the connection without doing anything', async () => {
    await withSandbox({ faults: { drop: 1 } }, async (sandbox) => {
      expect(await createRaw(sandbox)).toEqual({ body: '', error: 'ECONNRESET' });
      expect(await invoicesOf(sandbox)).toEqual([]);
    });
  });

  it('drop-after-commit creates the invoice, then closes the connection without answering', async () => {
    await withSandbox({ faults: { 'drop-after-commit': 1 } }, async (sandbox) => {
      expect(await createRaw(sandbox)).toEqual({ body: '', error: 'ECONNRESET' });
      expect(await invoicesOf(sandbox)).toHaveLength(1);
      // A rejected operation has nothing committed, so it is answered as usual.
      const invalid = await call(sandbox, 'POST', '/invoice-api/invoices/single', { body: {} });
      expect(invalid.status).toBe(400);
    });
  });

  it('hang holds the request unanswered and does nothing, until the client gives up', async () => {
    await withSandbox({ faults: { hang: 1 } }, async (sandbox) => {
      // The client gives up after 300 ms without an answer, as a client's time-out does.
      const outcome = await new Promise<string>((resolve) => {
        const request = httpRequest(`${sandbox.url}/invoice-api/invoices/single`, {
          method: 'POST',
          headers: { authorization: `Bearer ${sandbox.token}`, 'content-type': 'application/json' },
          timeout: 300,
        });
        request.on('timeout', () => {
          request.destroy();
          resolve('no answer');
        });
        request.on('response', (response) => resolve(`answered ${response.statusCode}`));
        request.on('error', () => undefined);
        request.end(JSON.stringify(singleInvoice()));
      });
      expect(outcome).toBe('no answer');
      expect(await invoicesOf(sandbox)).toEqual([]);
    });
  });

  it('lets a hung request go when the sandbox stops', async () => {
    const sandbox = await startSandbox({ faults: { hang: 1 } });
    const hung = createRaw(sandbox);
    // Held, or about to be: the sandbox has it.
    await until(
      async () => (await call(sandbox, 'GET', '/__sandbox/requests')).body.requests.length === 1,
      'the request in the history',
    );
    await sandbox.close();
    expect(await hung).toEqual({ body: '', error: 'ECONNRESET' });
  });

  it('applies after the token check and never to the admin API', async () => {
    await withSandbox({ faults: { '500': 1 } }, async (sandbox) => {
      expect((await call(sandbox, 'GET', '/invoice-api/invoices/statistics', { token: 'wrong' })).status).toBe(401);
      expect((await call(sandbox, 'GET', '/__sandbox/outbox')).status).toBe(200);
      expect((await call(sandbox, 'GET', '/invoice-api/invoices/statistics')).status).toBe(500);
    });
  });

  it('delays each service operation by latencyMs', async () => {
    await withSandbox({ latencyMs: 150 }, async (sandbox) => {
      const started = performance.now();
      expect((await call(sandbox, 'GET', '/invoice-api/invoices/statistics')).status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    });
  });

  it('injects the same faults for the same seed, and other faults for another seed', async () => {
    const run = async (seed: number) => {
      const statuses: number[] = [];
      await withSandbox({ seed, faults: { '503': 0.5 } }, async (sandbox) => {
        for (let i = 0; i < 24; i += 1) {
          statuses.push((await call(sandbox, 'GET', '/invoice-api/invoices/statistics')).status);
        }
      });
      return statuses;
    };
    const first = await run(7);
    expect(first).toContain(503);
    expect(first).toContain(200);
    expect(await run(7)).toEqual(first);
    expect(await run(8)).not.toEqual(first);
  });

  it('is changed and read through /__sandbox/faults', async () => {
    await withSandbox({}, async (sandbox) => {
      const initial = await call(sandbox, 'GET', '/__sandbox/faults');
      expect(faultsInForceSchema.parse(initial.body)).toEqual({ latencyMs: 0, faults: {}, seed: 1 });
      const set = await call(sandbox, 'POST', '/__sandbox/faults', { body: { faults: { '429': 1 }, seed: 3 } });
      expect(set.body).toEqual({ latencyMs: 0, faults: { '429': 1 }, seed: 3 });
      expect((await createSingle(sandbox)).status).toBe(429);
      const invalid = await call(sandbox, 'POST', '/__sandbox/faults', { body: { faults: { '500': 0.7, drop: 0.7 } } });
      expect(invalid.status).toBe(400);
      expect(serviceErrorSchema.parse(invalid.body).errors?.[0]?.field).toBe('faults');
      await call(sandbox, 'POST', '/__sandbox/faults', { body: { faults: {} } });
      expect((await createSingle(sandbox)).status).toBe(201);
    });
  });

  it('refuses fault settings out of range when starting', async () => {
    await expect(startSandbox({ faults: { '503': 2 } as Partial<Record<FaultKind, number>> })).rejects.toThrow(
      /faults\.503/,
    );
  });
});

describe('mulberry32', () => {
  it('is reproducible and spread over [0, 1)', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const values = Array.from({ length: 1000 }, () => a());
    expect(values.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => b()));
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
    expect(mean).toBeGreaterThan(0.45);
    expect(mean).toBeLessThan(0.55);
  });
});
