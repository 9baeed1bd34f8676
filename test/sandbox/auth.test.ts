import { afterEach, describe, expect, it } from 'vitest';
import { serviceErrorSchema, tokenResponseSchema } from '../../src/schemas/index.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { call, singleInvoice, useSandbox } from './support.js';

const statisticsPath = '/invoice-api/invoices/statistics';

function expectUnauthorized(response: { status: number; body: unknown; headers: Headers }, message: RegExp) {
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toBe('Bearer');
  expect(serviceErrorSchema.parse(response.body)).toMatchObject({ status: 401, code: 'UNAUTHORIZED', message });
}

describe('authentication', () => {
  const sandbox = useSandbox();

  it('answers 401 without a token, with a wrong one, or with a malformed header', async () => {
    expectUnauthorized(await call(sandbox(), 'GET', statisticsPath, { token: null }), /missing/);
    expectUnauthorized(await call(sandbox(), 'GET', statisticsPath, { token: 'sbx_wrong' }), /not valid/);
    const basic = await call(sandbox(), 'GET', statisticsPath, {
      token: null,
      headers: { authorization: 'Basic abc' },
    });
    expectUnauthorized(basic, /Bearer/);
    const create = await call(sandbox(), 'POST', '/invoice-api/invoices/single', {
      token: 'nope',
      body: singleInvoice(),
    });
    expect(create.status).toBe(401);
    expect((await call(sandbox(), 'GET', '/__sandbox/invoices')).body.invoices).toEqual([]);
  });

  it('accepts an issued token until it expires by sandbox time; the main token never expires', async () => {
    const issued = await call(sandbox(), 'POST', '/__sandbox/tokens', { body: { ttlSeconds: 3600 } });
    expect(issued.status).toBe(200);
    const { token, expiresAt } = tokenResponseSchema.parse(issued.body);
    expect(token).toMatch(/^sbx_/);
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(3500_000);
    expect((await call(sandbox(), 'GET', statisticsPath, { token })).status).toBe(200);

    await call(sandbox(), 'POST', '/__sandbox/clock', { body: { advance: '2h' } });
    expectUnauthorized(await call(sandbox(), 'GET', statisticsPath, { token }), /expired/);
    await call(sandbox(), 'POST', '/__sandbox/clock', { body: { advance: '520w' } });
    expect((await call(sandbox(), 'GET', statisticsPath)).status).toBe(200);
  });

  it('needs no token for the admin API', async () => {
    expect((await call(sandbox(), 'GET', '/__sandbox/clock', { token: null })).status).toBe(200);
  });
});

describe('the merchant token', () => {
  let sandbox: RunningSandbox | undefined;
  afterEach(() => sandbox?.close());

  it('is the one given, or a new random sbx_ token', async () => {
    sandbox = await startSandbox({ token: 'local-dev' });
    expect(sandbox.token).toBe('local-dev');
    expect((await call(sandbox, 'GET', statisticsPath, { token: 'local-dev' })).status).toBe(200);
    await sandbox.close();
    sandbox = await startSandbox();
    const other = await startSandbox();
    await other.close();
    expect(sandbox.token).toMatch(/^sbx_[0-9a-f]{48}$/);
    expect(other.token).not.toBe(sandbox.token);
  });
});
