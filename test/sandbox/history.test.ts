import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxRequestsResponseSchema, serviceErrorSchema, type SandboxRequest } from '../../src/schemas/index.js';
import { exportSandboxState, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { requestHistoryLimit } from '../../src/sandbox/history-table.js';
import { emptyState } from '../../src/sandbox/state.js';
import { openStore } from '../../src/sandbox/store.js';
import { until } from '../bulk/helpers.js';
import { call, createInvoice, rawRequest, singleInvoice, useSandbox } from './support.js';

// The service's request history: every request the sandbox received (its admin API's aside), with the fault it was
// given, whether it changed the state and what was answered, read through GET /__sandbox/requests.

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function history(sandbox: RunningSandbox, query = ''): Promise<{ requests: SandboxRequest[]; next?: string }> {
  const response = await call(sandbox, 'GET', `/__sandbox/requests${query}`);
  expect(response.status, response.text).toBe(200);
  return sandboxRequestsResponseSchema.parse(response.body);
}

/** The history once no request is in flight any more (its rows are written at the end of a turn). */
async function settledHistory(sandbox: RunningSandbox, count: number): Promise<SandboxRequest[]> {
  let requests: SandboxRequest[] = [];
  await until(async () => {
    requests = (await history(sandbox)).requests;
    return requests.length === count && requests.every((request) => request.ended !== 'in-flight');
  }, `${count} requests ended in the history`);
  return requests;
}

const setFaults = (sandbox: RunningSandbox, faults: Record<string, number>) =>
  call(sandbox, 'POST', '/__sandbox/faults', { body: { faults } });

const createRawly = (sandbox: RunningSandbox, body: string) =>
  rawRequest(sandbox, {
    method: 'POST',
    path: '/invoice-api/invoices/single',
    headers: { authorization: `Bearer ${sandbox.token}`, 'content-type': 'application/json' },
    body,
  });

describe('the request history', () => {
  const sandbox = useSandbox();

  it('records each request to the service: its body, the fault injected, what it committed and answered', async () => {
    const body = JSON.stringify(singleInvoice({ note: 'first' }));
    const created = await createRawly(sandbox(), body);
    expect(created.status).toBe(201);
    await setFaults(sandbox(), { '503': 1 });
    expect((await createRawly(sandbox(), body)).status).toBe(503);
    await setFaults(sandbox(), { 'drop-after-commit': 1 });
    expect((await createRawly(sandbox(), body)).error).toBe('ECONNRESET');
    await setFaults(sandbox(), { drop: 1 });
    expect((await createRawly(sandbox(), body)).error).toBe('ECONNRESET');
    await setFaults(sandbox(), {});
    const unauthenticated = await call(sandbox(), 'GET', '/invoice-api/invoices/statistics', { token: 'wrong' });
    expect(unauthenticated.status).toBe(401);
    // The admin API is the tester's hand, not the service's: none of these is in the history.
    await call(sandbox(), 'GET', '/__sandbox/invoices');

    const requests = await settledHistory(sandbox(), 5);
    const path = '/invoice-api/invoices/single';
    const sent = { method: 'POST', path, bodySha256: sha256(body), bodyBytes: Buffer.byteLength(body) };
    expect(requests).toEqual(
      [
        { ...sent, seq: 1, fault: null, committed: true, status: 201, ended: 'answered', invoiceNumber: created.body },
        { ...sent, seq: 2, fault: '503', committed: false, status: 503, ended: 'answered', invoiceNumber: null },
        {
          ...sent,
          seq: 3,
          fault: 'drop-after-commit',
          committed: true,
          status: null,
          ended: 'dropped',
          invoiceNumber: '1000002',
        },
        { ...sent, seq: 4, fault: 'drop', committed: false, status: null, ended: 'dropped', invoiceNumber: null },
        {
          seq: 5,
          method: 'GET',
          path: '/invoice-api/invoices/statistics',
          bodySha256: null,
          bodyBytes: null,
          fault: null,
          committed: false,
          status: 401,
          ended: 'answered',
          invoiceNumber: null,
        },
      ].map((request) => ({ ...request, receivedAt: expect.any(String), endedAt: expect.any(String) })),
    );
    for (const request of requests) expect(request.endedAt! >= request.receivedAt).toBe(true);
  });

  it('names the invoice a refund is of, whether or not the refund was made', async () => {
    const number = await createInvoice(sandbox(), 'single', singleInvoice());
    const { orderReferenceNumber } = (await call(sandbox(), 'POST', `/__sandbox/invoices/${number}/pay`)).body;
    const refund = { amount: 10, reason: 'damaged', orderReferenceNumber };
    expect((await call(sandbox(), 'POST', `/invoice-api/invoices/${number}/refund`, { body: refund })).status).toBe(
      200,
    );
    const again = await call(sandbox(), 'POST', `/invoice-api/invoices/${number}/refund`, { body: refund });
    expect(serviceErrorSchema.parse(again.body).code).toBe('INVALID_STATE');

    const [, made, refused] = await settledHistory(sandbox(), 3);
    const path = `/invoice-api/invoices/${number}/refund`;
    expect(made).toMatchObject({ path, committed: true, status: 200, invoiceNumber: number });
    expect(refused).toMatchObject({ path, committed: false, status: 400, invoiceNumber: number });
  });

  it('lists a request while it is in flight', async () => {
    await setFaults(sandbox(), { hang: 1 });
    const hung = createRawly(sandbox(), JSON.stringify(singleInvoice()));
    await until(async () => (await history(sandbox())).requests.length === 1, 'the request in the history');
    const [inFlight] = (await history(sandbox())).requests;
    expect(inFlight).toMatchObject({ seq: 1, ended: 'in-flight', endedAt: null, committed: null, status: null });
    await sandbox().close();
    await hung;
  });

  it('gives it a page at a time, after the seq of the last request read', async () => {
    for (let index = 0; index < 5; index += 1) {
      await call(sandbox(), 'GET', '/invoice-api/invoices/statistics');
    }
    await settledHistory(sandbox(), 5);
    const first = await history(sandbox(), '?limit=2');
    expect(first.requests.map((request) => request.seq)).toEqual([1, 2]);
    expect(first.next).toBe('2');
    const last = await history(sandbox(), '?limit=2&after=4');
    expect(last.requests.map((request) => request.seq)).toEqual([5]);
    expect(last.next).toBeUndefined();
    expect((await history(sandbox(), '?after=99')).requests).toEqual([]);
    const wrong = await call(sandbox(), 'GET', '/__sandbox/requests?limit=0&since=1');
    expect(wrong.status).toBe(400);
    expect(serviceErrorSchema.parse(wrong.body).errors?.map((error) => error.field)).toEqual(['limit', 'since']);
  });

  it('starts over with a reset, numbering on from where it was', async () => {
    await call(sandbox(), 'GET', '/invoice-api/invoices/statistics');
    await settledHistory(sandbox(), 1);
    await call(sandbox(), 'POST', '/__sandbox/reset');
    expect((await history(sandbox())).requests).toEqual([]);
    await call(sandbox(), 'GET', '/invoice-api/invoices/statistics');
    await until(async () => (await history(sandbox())).requests[0]?.seq === 2, 'the next request numbered 2');
  });
});

describe('the request history in a state file', () => {
  const stateFile = () => join(mkdtempSync(join(tmpdir(), 'einvoice-history-')), 'state.sqlite');

  it('is kept in the file, shared by the sandboxes serving it, and printed by sandbox export', async () => {
    const file = stateFile();
    const first = await startSandbox({ stateFile: file });
    const second = await startSandbox({ stateFile: file });
    await createInvoice(first, 'single', singleInvoice());
    await call(second, 'GET', '/invoice-api/invoices/statistics');
    await first.close();
    await second.close();
    let json = '';
    await exportSandboxState({ stateFile: file, write: async (piece) => void (json += piece) });
    const { requests } = JSON.parse(json) as { requests: SandboxRequest[] };
    expect(requests.map(({ seq, method, status }) => ({ seq, method, status }))).toEqual([
      { seq: 1, method: 'POST', status: 201 },
      { seq: 2, method: 'GET', status: 200 },
    ]);
  });

  it('is added to a state file of the version before, which keeps its invoices', async () => {
    const file = stateFile();
    const old = await startSandbox({ stateFile: file });
    const number = await createInvoice(old, 'single', singleInvoice());
    await old.close();
    // The file as the einvoice before the history left it.
    const database = new DatabaseSync(file);
    database.exec('DROP TABLE requests; PRAGMA user_version = 1');
    database.close();

    const sandbox = await startSandbox({ stateFile: file });
    try {
      expect((await call(sandbox, 'GET', '/__sandbox/invoices')).body.invoices).toMatchObject([
        { invoiceNumber: number },
      ]);
      await call(sandbox, 'GET', '/invoice-api/invoices/statistics');
      await settledHistory(sandbox, 1);
    } finally {
      await sandbox.close();
    }
  });

  it('never holds a request up while another process writes: its rows wait for a later turn', async () => {
    const file = stateFile();
    const sandbox = await startSandbox({ stateFile: file });
    const writer = new DatabaseSync(file);
    try {
      writer.exec('BEGIN IMMEDIATE');
      const statistics = await call(sandbox, 'GET', '/invoice-api/invoices/statistics');
      expect(statistics.status).toBe(200);
      expect((await history(sandbox)).requests).toEqual([]);
      writer.exec('ROLLBACK');
      await settledHistory(sandbox, 1);
    } finally {
      writer.close();
      await sandbox.close();
    }
  });
});

describe('the bound of the request history', () => {
  it('keeps the newest requests, letting the oldest go as each new one comes', async () => {
    const store = await openStore({ create: () => emptyState('1000001') });
    try {
      const received = { receivedAt: new Date().toISOString(), method: 'GET', path: '/' };
      const seqs = store.write((state) =>
        Array.from({ length: requestHistoryLimit + 3 }, () => state.receiveRequest(received)),
      );
      expect(seqs.at(-1)).toBe(requestHistoryLimit + 3);
      const kept = store.read((state) => state.requests()).requests;
      expect(kept).toHaveLength(requestHistoryLimit);
      expect(kept[0]?.seq).toBe(4);
    } finally {
      store.close();
    }
  });
});
