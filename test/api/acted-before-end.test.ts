import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { ServiceUnavailableError } from '../../src/errors.js';

// got writes a request's body, waits a turn of the event loop, and only then ends the request, which is when it
// records the request as sent. With a Content-Length the service has the whole request once the body is written,
// so it can act on it and drop the connection before got ends it. That request reached the service.
//
// To make that order certain, the service runs in a worker thread (its own event loop) and the client's thread
// waits, in the same turn that wrote the body, until the service has read the body and closed the connection.

const token = 'acted-before-end-token-0123456789';
const refund = { amount: 5, reason: 'Late', orderReferenceNumber: '3700001' };

// The service: the first request is answered (its connection stays open for the next one); each later one is read
// to the end, counted, and its connection closed without an answer. `state[0]` counts closed connections.
const serviceSource = `
const { createServer } = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const state = workerData.state;
let seen = 0;
const server = createServer((req, res) => {
  const index = seen++;
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    parentPort.postMessage({ body: Buffer.concat(chunks).toString('utf8') });
    if (index === 0) return res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    req.socket.once('close', () => {
      Atomics.add(state, 0, 1);
      Atomics.notify(state, 0);
    });
    req.socket.destroy();
  });
});
parentPort.on('message', () => server.close(() => parentPort.close()));
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ url: 'http://127.0.0.1:' + server.address().port }));
`;

const workers: Worker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.terminate()));
});

describe('a service that acts on a request before the client has ended it', () => {
  it('reports the request as one that may have reached the service', async () => {
    const state = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(serviceSource, { eval: true, workerData: { state } });
    workers.push(worker);
    const bodies: string[] = [];
    const [ready] = (await once(worker, 'message')) as [{ url: string }];
    // The worker's messages and the client's socket events arrive by different routes, so the test waits for the
    // second body's message itself rather than assuming it came before the client saw the connection close.
    const bothBodiesRead = new Promise<void>((resolve) => {
      worker.on('message', (message: { body?: string }) => {
        if (message.body !== undefined && bodies.push(message.body) === 2) resolve();
      });
    });
    const client = createClient({ baseUrl: ready.url, token, getRetries: 0 });
    await client.refundInvoice('1000001', refund);

    const failure = await new Promise<unknown>((resolve) => {
      // Both timers fire in the same turn: the first sends on the open connection, the second holds the turn
      // until the service has read the body and closed the connection.
      setTimeout(() => void client.refundInvoice('1000002', refund).then(resolve, resolve), 1);
      setTimeout(() => Atomics.wait(state, 0, 0, 10_000), 1);
    });

    expect(Atomics.load(state, 0)).toBe(1);
    await bothBodiesRead;
    expect(bodies).toEqual([JSON.stringify(refund), JSON.stringify(refund)]);
    expect(failure).toBeInstanceOf(ServiceUnavailableError);
    expect(failure).toMatchObject({ mayHaveReachedService: true, exitCode: 5 });
    expect((failure as Error).message).toContain('the connection was dropped');
  });
});
