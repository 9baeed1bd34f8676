import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../src/api/client.js';
import { JournalWriter } from '../../src/bulk/journal.js';
import { readJournal } from '../../src/bulk/journal-state.js';
import { RecordResults, type RecordResult } from '../../src/bulk/results.js';
import { invoiceSending } from '../../src/bulk/kind.js';
import { sendRecords, type SendEntry, type SendOptions } from '../../src/bulk/send.js';
import {
  sendJson,
  startTestServer,
  type RecordedRequest,
  type TestHandler,
  type TestServer,
} from '../helpers/http-server.js';
import { journalEntries, tempDir } from './helpers.js';

// The sending loop against real HTTP servers on 127.0.0.1: what is retried, what is not, and what the journal says.

const token = 'send-test-token-0123456789';
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function body(index: number, withReference: boolean): Record<string, unknown> {
  return {
    customer: { name: `C${index}`, mobile: '+201001234567' },
    amount: 10 + index,
    sendingDate: '2030-01-01',
    expiryDate: '2030-02-01T00:00:00.000Z',
    releaseDate: '2030-01-01T00:00:00.000Z',
    ...(withReference ? { businessReference: `R${index}` } : {}),
    note: `Order ${index}`,
  };
}

/** Sends `count` records to a server answering with `handler`; returns the results, requests and journal. */
async function send(
  handler: TestHandler,
  count: number,
  options: Partial<SendOptions> & { withReference?: boolean } = {},
) {
  const server = await startTestServer(handler);
  servers.push(server);
  const path = join(tempDir(), 'journal.ndjson');
  const journal = await JournalWriter.open(path);
  const results = RecordResults.of(
    Array.from({ length: count }, (_, index): RecordResult => ({ record: index + 1, status: 'pending' })),
  );
  const entries: SendEntry[] = Array.from({ length: count }, (_, index) => ({
    index,
    key: `key-${index + 1}`,
    previouslySent: false,
    businessReference: options.withReference === false ? undefined : `R${index + 1}`,
    bodyJson: JSON.stringify(body(index + 1, options.withReference ?? true)),
  }));
  const outcome = await sendRecords({
    kind: invoiceSending('single'),
    client: createServiceClient({ baseUrl: server.url, token, environment: 'local', timeoutMs: 5_000 }),
    journal,
    entries: (async function* () {
      yield* entries;
    })(),
    results,
    concurrency: 2,
    retries: 3,
    ...options,
  });
  await journal.close();
  return { outcome, results: [...results], requests: server.requests, journalPath: path };
}

/** Answers the nth request of each note with the given responses in turn, then 201. */
function scripted(script: Record<string, Array<(response: Parameters<TestHandler>[1]) => void>>): TestHandler {
  const seen = new Map<string, number>();
  let next = 1000001;
  return (request: RecordedRequest, response) => {
    const note = (JSON.parse(request.body) as { note: string }).note;
    const attempt = seen.get(note) ?? 0;
    seen.set(note, attempt + 1);
    const answer = script[note]?.[attempt];
    if (answer) return answer(response);
    response.writeHead(201, { 'content-type': 'application/json' });
    response.end(String(next++));
  };
}

const unavailable503 = (response: Parameters<TestHandler>[1]) =>
  sendJson(response, 503, { code: 'SERVICE_UNAVAILABLE', message: 'busy' }, { 'retry-after': '0' });
const internal500 = (response: Parameters<TestHandler>[1]) => sendJson(response, 500, { message: 'boom' });
const drop = (response: Parameters<TestHandler>[1]) => response.socket?.destroy();

describe('sendRecords', () => {
  it('creates every record and journals sent before created', async () => {
    const { results, journalPath, requests } = await send(scripted({}), 5);
    expect(results.map((result) => result.status)).toEqual(Array(5).fill('created'));
    expect(new Set(results.map((result) => result.invoiceNumber)).size).toBe(5);
    expect(requests).toHaveLength(5);
    for (const key of ['key-1', 'key-5']) {
      const types = journalEntries(journalPath)
        .filter((entry) => entry.key === key)
        .map((entry) => entry.type);
      // The plan journals each body (`planned`); sending adds what happened to it.
      expect(types).toEqual(['sent', 'created']);
    }
    expect(requests[0]?.headers.authorization).toBe(`Bearer ${token}`);
  });

  it('retries a 503 with Retry-After even without a businessReference', async () => {
    const { results, requests } = await send(scripted({ 'Order 1': [unavailable503, unavailable503] }), 1, {
      withReference: false,
    });
    expect(results[0]).toMatchObject({ status: 'created' });
    expect(requests).toHaveLength(3);
  });

  it('resends a record with a businessReference after a dropped connection, and counts a duplicate as created', async () => {
    const duplicate = (response: Parameters<TestHandler>[1]) =>
      sendJson(response, 409, { code: 'DUPLICATE_INVOICE', message: 'dup', invoiceNumber: '1000777' });
    const { results, requests } = await send(scripted({ 'Order 1': [drop, duplicate] }), 1);
    // The dropped attempt most likely created it: the record says so.
    expect(results[0]).toMatchObject({ status: 'already-existed', invoiceNumber: '1000777', afterLostAnswer: true });
    expect(requests).toHaveLength(2);
  });

  it('counts a duplicate met at the first attempt as already existing before the run', async () => {
    const duplicate = (response: Parameters<TestHandler>[1]) =>
      sendJson(response, 409, { code: 'DUPLICATE_INVOICE', message: 'dup', invoiceNumber: '1000778' });
    const { results, requests } = await send(scripted({ 'Order 1': [duplicate] }), 1);
    expect(results[0]).toMatchObject({ status: 'already-existed', invoiceNumber: '1000778' });
    expect(results[0]?.afterLostAnswer).toBeUndefined();
    expect(requests).toHaveLength(1);
  });

  it('does not resend a record without a businessReference after a 500 or a drop: it is uncertain', async () => {
    const { results, requests, journalPath } = await send(
      scripted({ 'Order 1': [internal500], 'Order 2': [drop] }),
      2,
      { withReference: false },
    );
    expect(results.map((result) => result.status)).toEqual(['uncertain', 'uncertain']);
    expect(requests).toHaveLength(2);
    const state = await readJournal(journalPath);
    expect(state?.records.get('key-1')?.state).toBe('uncertain');
  });

  it('gives up after --retries, and reports a 400 as failed without retrying it', async () => {
    const bad = (response: Parameters<TestHandler>[1]) =>
      sendJson(response, 400, { code: 'VALIDATION_FAILED', message: 'no', errors: [{ field: 'note', message: 'no' }] });
    const { results, requests } = await send(scripted({ 'Order 1': Array(5).fill(internal500), 'Order 2': [bad] }), 2, {
      retries: 2,
    });
    expect(results[0]).toMatchObject({ status: 'uncertain' });
    expect(results[1]).toMatchObject({ status: 'failed' });
    expect(requests.filter((request) => request.body.includes('Order 1'))).toHaveLength(3);
    expect(requests.filter((request) => request.body.includes('Order 2'))).toHaveLength(1);
  });

  it('stops the whole run at the first 401: nothing else is started', async () => {
    const unauthorized = (response: Parameters<TestHandler>[1]) => sendJson(response, 401, { message: 'expired' });
    const { results, outcome, requests } = await send(scripted({ 'Order 1': [unauthorized] }), 20, { concurrency: 1 });
    expect(outcome.authError).toBeDefined();
    expect(results[0]).toMatchObject({ status: 'failed' });
    expect(results.slice(1).every((result) => result.status === 'pending')).toBe(true);
    expect(requests).toHaveLength(1);
  });

  it('pauses every worker after a 429 and honours --rate', async () => {
    const limited = (response: Parameters<TestHandler>[1]) =>
      sendJson(response, 429, { message: 'slow down' }, { 'retry-after': '0' });
    const { results, requests } = await send(scripted({ 'Order 1': [limited] }), 4, { rate: 1000 });
    expect(results.every((result) => result.status === 'created')).toBe(true);
    expect(requests).toHaveLength(5);
  });

  it('stops after --stop-after-failures attempts in a row that every record meets, and not after others', async () => {
    const loginPage: TestHandler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>Sign in</html>');
    };
    const { results, outcome, requests } = await send(loginPage, 30, {
      concurrency: 1,
      stopAfterFailures: 5,
      withReference: false,
    });
    expect(outcome.serviceDown).toEqual({
      reason: "the answer is an HTML page (HTTP 200), not the service's JSON",
      failures: 5,
    });
    expect(requests).toHaveLength(5);
    expect(results.filter((result) => result.status === 'pending')).toHaveLength(25);

    // A record's own refusal (a 400) is no sign of the service being down: those never stop the run.
    const refusing: TestHandler = (_request, response) => sendJson(response, 400, { message: 'bad amount' });
    const refused = await send(refusing, 12, { concurrency: 1, stopAfterFailures: 5 });
    expect(refused.outcome.serviceDown).toBeUndefined();
    expect(refused.results.every((result) => result.status === 'failed')).toBe(true);
  });

  it('starts no record after the signal aborts, and finishes the one in flight', async () => {
    const controller = new AbortController();
    const handler: TestHandler = (_request, response, index) => {
      // Ctrl-C arrives while the first request is in flight.
      if (index === 0) controller.abort();
      response.writeHead(201);
      response.end(String(1000001 + index));
    };
    const sending = send(handler, 5, { concurrency: 1, signal: controller.signal });
    const { results, outcome, requests } = await sending;
    expect(outcome.interrupted).toBe(true);
    expect(results[0]).toMatchObject({ status: 'created' });
    expect(results.slice(1).every((result) => result.status === 'pending')).toBe(true);
    expect(requests).toHaveLength(1);
  });
});
