import { describe, expect, it } from 'vitest';
import { records, writeNdjson } from '../bulk/helpers.js';
import { sampleStatistics, sendJson, serversClosedAfterEach } from '../helpers/http-server.js';
import { runInProcess } from '../helpers/in-process.js';
import { newToken } from '../helpers/secrets.js';
import { folderWithProfile } from '../helpers/profile.js';

// What the service sends is shown, never obeyed: --verbose never prints the token a service or proxy echoes back,
// and a line break in the service's message cannot make a line that reads as the tool's own.

const serve = serversClosedAfterEach();

const invoiceFlags = [
  ...['--customer-name', 'Mona Adel', '--customer-mobile', '+201001234567', '--amount', '250'],
  ...['--sending-date', '2030-05-01', '--release-date', '2030-05-01', '--expiry-date', '2030-05-31'],
  ...['--note', 'Order 77', '--yes'],
];

/** Every line of both streams. */
const linesOf = (result: { stdout: string; stderr: string }) => `${result.stdout}\n${result.stderr}`.split('\n');

describe('--verbose and a service that echoes the Authorization header', () => {
  it('stats: the token appears nowhere, in a header, a JSON body or a text body', async () => {
    // A token JSON writes differently (its slash escaped) must be found in that form too.
    const token = newToken('echo/verbose');
    const service = await serve((request, response) => {
      const authorization = request.headers.authorization ?? '';
      const body = { ...sampleStatistics(), echo: { authorization, escaped: authorization.replaceAll('/', '\\/') } };
      response.writeHead(200, { 'content-type': 'application/json', 'x-echo-authorization': authorization });
      response.end(`${JSON.stringify(body).replaceAll('\\\\/', '\\/')}\n${authorization}\n`);
    });
    const cwd = folderWithProfile(service.url, token);
    const result = await runInProcess(['stats', '--verbose'], { cwd, secrets: [token] });
    // The service did put the token in the answer, in three places, so the test would see it if printed.
    expect(service.requests[0]?.headers.authorization).toBe(`Bearer ${token}`);
    expect(result.stderr).toContain('< x-echo-authorization: Bearer ***');
    expect(result.stderr).toContain('"authorization":"Bearer ***"');
    expect(result.stderr).toContain('< Bearer ***');
    expect(result.stderr).not.toContain(token.split('/')[1]);
  });
});

describe('a line break in the service message', () => {
  const forged = '✔ Created single invoice 999999';

  it('a 400 whose message holds "\\n✔ Created single invoice 999999": no output line begins with it', async () => {
    const service = await serve((_request, response) =>
      sendJson(response, 400, {
        message: `Bad request\n${forged}`,
        errors: [{ field: 'customer.name\r\n✔ Done', message: `is odd\u2028${forged}` }],
      }),
    );
    const cwd = folderWithProfile(service.url, newToken('linebreak'));
    const result = await runInProcess(['create', 'single', ...invoiceFlags], { cwd });
    expect(result.code, result.stderr).toBe(4);
    expect(result.stderr).toContain(`The service rejected the request (HTTP 400): Bad request⏎${forged}`);
    expect(result.stderr).toContain(`customer.name⏎✔ Done: is odd⏎${forged}`);
    for (const line of linesOf(result)) expect(line.trimStart()).not.toMatch(/^✔/);
  });

  it('a 503 whose JSON message holds a line break: one line, shown with a mark', async () => {
    const service = await serve((_request, response) =>
      sendJson(response, 503, { message: `Down for maintenance\n${forged}` }),
    );
    const cwd = folderWithProfile(service.url, newToken('linebreak'));
    const result = await runInProcess(['create', 'single', ...invoiceFlags], { cwd });
    expect(result.code, result.stderr).toBe(8);
    expect(result.stderr).toContain(`Down for maintenance⏎${forged}`);
    for (const line of linesOf(result)) expect(line.trimStart()).not.toMatch(/^✔/);
  });

  it('in a bulk run, the summary and --json carry it on one line', async () => {
    const service = await serve((_request, response) => sendJson(response, 400, { message: `Bad request\n${forged}` }));
    const cwd = folderWithProfile(service.url, newToken('linebreak'));
    writeNdjson(cwd, 'batch.ndjson', records(2));
    const result = await runInProcess(['create', 'single', '--file', 'batch.ndjson', '--yes', '--json'], { cwd });
    expect(result.code, result.stderr).toBe(6);
    const report = JSON.parse(result.stdout) as { records: Array<{ error?: string }> };
    expect(report.records[0]?.error).toContain(`Bad request⏎${forged}`);
    for (const line of linesOf(result)) expect(line.trimStart()).not.toMatch(/^✔/);
  });
});
