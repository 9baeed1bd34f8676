import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { get, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Workbook } from '@cj-tech-master/excelts';
import { afterEach, describe, expect, it } from 'vitest';
import { dashboardFolder } from '../../src/package-files.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { call, createInvoice, rawRequest, singleInvoice } from './support.js';

const running: RunningSandbox[] = [];
async function start(options: Parameters<typeof startSandbox>[0] = {}): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ ui: true, ...options });
  running.push(sandbox);
  return sandbox;
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
});

/** An open event stream of the dashboard, and a way to wait for the next event that names `type`. */
async function openEvents(sandbox: RunningSandbox) {
  const response = await new Promise<IncomingMessage>((resolve, reject) =>
    get(`${sandbox.url}/__sandbox/events`, resolve).on('error', reject),
  );
  let received = '';
  const waiters: Array<() => void> = [];
  response.setEncoding('utf8').on('data', (chunk: string) => {
    received += chunk;
    waiters.splice(0).forEach((wake) => wake());
  });
  /** Resolves with the text received once it holds `count` events named `type`. */
  const events = (type: string, count: number) =>
    new Promise<string>((resolve) => {
      const check = () => {
        if (received.split(`event: ${type}\n`).length - 1 >= count) resolve(received);
        else waiters.push(check);
      };
      check();
    });
  // The stream's first words: how long to wait before reconnecting.
  await new Promise<void>((resolve) => {
    const check = () => (received.includes('retry: ') ? resolve() : waiters.push(check));
    check();
  });
  return { response, events, received: () => received };
}

describe('the dashboard', () => {
  it('is served only with ui', async () => {
    const plain = await startSandbox();
    try {
      for (const path of ['/__sandbox/ui/', '/__sandbox/dashboard', '/__sandbox/events']) {
        expect((await call(plain, 'GET', path, { token: null })).status).toBe(404);
      }
    } finally {
      await plain.close();
    }
    const sandbox = await start();
    expect(sandbox.dashboardUrl).toBe(`${sandbox.url}/__sandbox/ui/`);
  });

  it("gives the view the merchant's currency to show beside amounts, and none when the profile names none", async () => {
    const withCurrency = await start({ currency: 'EGP' });
    expect((await call(withCurrency, 'GET', '/__sandbox/dashboard')).body).toMatchObject({ currency: 'EGP' });
    const without = await start();
    expect((await call(without, 'GET', '/__sandbox/dashboard')).body).not.toHaveProperty('currency');
  });

  it("gives the view and its workbook the merchant's time zone: date-times on its wall clock", async () => {
    // Tokyo: neither a developer's zone (UTC) nor CI's (Cairo), so only the zone given can make these hours.
    const tokyo = await start({ timeZone: 'Asia/Tokyo' });
    const invoice = singleInvoice({ releaseDate: '2030-01-04T15:00:00.000Z', expiryDate: '2030-02-05T14:59:59.999Z' });
    const number = await createInvoice(tokyo, 'single', invoice);
    expect((await call(tokyo, 'GET', '/__sandbox/dashboard')).body).toMatchObject({ timeZone: 'Asia/Tokyo' });
    const download = await fetch(`${tokyo.url}/__sandbox/ui/invoices.xlsx?search=${number}`);
    const workbook = new Workbook();
    await workbook.xlsx.load(new Uint8Array(await download.arrayBuffer()));
    const [header = [], values = []] = ((workbook.getWorksheet(1)?.getSheetValues().slice(1) ?? []) as unknown[][]).map(
      (cells) => cells.slice(1),
    );
    // Tokyo's midnight, and the last millisecond of the day there, as Excel shows them (a date-time has no zone).
    expect(values[header.indexOf('releaseDate')]).toEqual(new Date('2030-01-05T00:00:00.000Z'));
    expect(values[header.indexOf('expiryDate')]).toEqual(new Date('2030-02-05T23:59:59.999Z'));

    // No zone given: this process's, as every command's without a profile's.
    const machine = await start();
    expect((await call(machine, 'GET', '/__sandbox/dashboard')).body).toMatchObject({
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    await expect(start({ timeZone: 'Cairo' })).rejects.toThrow("timeZone must be an IANA time zone, got 'Cairo'");
  });

  it('is opened through loopback when the sandbox listens on every address', async () => {
    const sandbox = await start({ host: '0.0.0.0' });
    const { port } = new URL(sandbox.url);
    expect(sandbox.dashboardUrl).toBe(`http://127.0.0.1:${port}/__sandbox/ui/`);
    expect((await fetch(sandbox.dashboardUrl ?? '')).status).toBe(200);
  });

  it('serves its page, style and script with their types and a policy that allows only the sandbox itself', async () => {
    const sandbox = await start();
    const cases = [
      ['/__sandbox/ui/', 'text/html; charset=utf-8'],
      ['/__sandbox/ui', 'text/html; charset=utf-8'],
      ['/__sandbox/ui/dashboard.js', 'text/javascript; charset=utf-8'],
      ['/__sandbox/ui/dashboard.css', 'text/css; charset=utf-8'],
    ];
    for (const [path, type] of cases) {
      const response = await call(sandbox, 'GET', path as string, { token: null });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(type);
      const policy = response.headers.get('content-security-policy') ?? '';
      expect(policy.split('; ')).toEqual(
        expect.arrayContaining([
          "default-src 'none'",
          "script-src 'self'",
          "style-src 'self'",
          "connect-src 'self'",
          "frame-ancestors 'none'",
          "form-action 'none'",
        ]),
      );
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
    const page = await call(sandbox, 'GET', '/__sandbox/ui/', { token: null });
    expect(page.text).toContain('<script type="module" src="/__sandbox/ui/dashboard.js"></script>');
  });

  it('reads no other file', async () => {
    const sandbox = await start();
    for (const path of ['/__sandbox/ui/package.json', '/__sandbox/ui/..%2Fpackage.json', '/__sandbox/ui/%2e%2e']) {
      const response = await rawRequest(sandbox, { method: 'GET', path });
      expect(response.status).toBe(404);
      expect(response.body).not.toContain('"name"');
    }
  });

  it('loads nothing from elsewhere and never writes invoice text as HTML', () => {
    const page = readFileSync(join(dashboardFolder, 'index.html'), 'utf8');
    const addresses = [...page.matchAll(/(?:src|href)="([^"]*)"/g)].map((match) => match[1]);
    expect(addresses.length).toBeGreaterThan(0);
    for (const address of addresses) expect(address).toMatch(/^(\/__sandbox\/ui\/|#|data:,$)/);
    const script = readFileSync(join(dashboardFolder, 'dashboard.js'), 'utf8');
    expect(script).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|https?:\/\//);
  });

  it('keeps its script well under 100 KB', () => {
    const scripts = readdirSync(dashboardFolder).filter((name) => name.endsWith('.js'));
    const bytes = scripts.reduce((sum, name) => sum + readFileSync(join(dashboardFolder, name)).length, 0);
    expect(bytes).toBeLessThan(100 * 1024);
  });

  it('shows the statistics and the invoices newest first, each with its notifications', async () => {
    const sandbox = await start({ demo: true });
    const items = [
      { itemCode: 'CH-01', purchasedQuantity: 2, price: 625, nameEn: 'Office chair', nameAr: 'كرسي مكتب' },
    ];
    const number = await createInvoice(
      sandbox,
      'single',
      singleInvoice({ communicationLang: 'ar-eg', communicationMethod: 'BOTH', items, alertMerchantUponExpiry: true }),
    );
    const { body, headers } = await call(sandbox, 'GET', '/__sandbox/dashboard', { token: null });
    expect(headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(body.statistics.allInvoices).toEqual({ totalCount: 9, totalAmount: 6245.74 });
    expect(body.statistics.unpaidInvoices.totalCount).toBe(4);
    // The new invoice first, then the demo's from the newest; each with the fields the page shows.
    expect(body.invoices[0]).toMatchObject({
      invoiceNumber: number,
      status: 'UNPAID',
      customer: { name: 'Test Customer' },
      communicationLang: 'ar-eg',
      items: [expect.objectContaining({ nameAr: 'كرسي مكتب' })],
    });
    expect(body.invoices[0].request).toBeUndefined();
    const created = body.invoices.map((invoice: { createdAt: string }) => invoice.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    // Sent: the SMS and e-mail in Arabic, with the Arabic item name; the merchant's alert is a preview until expiry.
    const messages = body.invoices[0].messages;
    expect(messages.map((message: Record<string, unknown>) => [message.to, message.channel, message.sent])).toEqual([
      ['customer', 'SMS', true],
      ['customer', 'EMAIL', true],
      ['merchant', 'EMAIL', false],
    ]);
    expect(messages[1]).toMatchObject({ lang: 'ar-eg', text: expect.stringContaining('كرسي مكتب × 2') });
    const outbox = (await call(sandbox, 'GET', '/__sandbox/outbox')).body.messages;
    const asSent = (message: Record<string, unknown>) => {
      const { textRuns: _text, subjectRuns: _subject, ...sent } = message;
      return sent;
    };
    expect(messages.slice(0, 2).map(asSent)).toEqual(outbox.map((message: object) => ({ ...message, sent: true })));
    // Beside each text, its runs: in Arabic, the amount and the price each one left-to-right piece, as the page
    // shows them; the runs put together are the text.
    for (const message of messages) {
      expect(message.textRuns.map((run: { text: string }) => run.text).join('')).toBe(message.text);
    }
    expect(messages[1].textRuns).toEqual(
      expect.arrayContaining([
        { text: '1,250.00', ltr: true },
        { text: '625.00', ltr: true },
      ]),
    );
    expect(messages[1].subjectRuns).toEqual(expect.arrayContaining([{ text: number, ltr: true }]));
    // An English message is one run.
    expect(messages[2].textRuns).toEqual([{ text: messages[2].text, ltr: false }]);
    // A demo invoice was seeded without messages: the page previews what the same templates write.
    const demoArabic = body.invoices.find((invoice: { businessReference?: string }) => {
      return invoice.businessReference === 'DEMO-0008';
    });
    expect(demoArabic.messages).toEqual([
      expect.objectContaining({ channel: 'SMS', lang: 'ar-eg', sent: false, text: expect.stringMatching(/^مرحباً/) }),
    ]);
  });

  it('pages through the invoices, newest first, of a status or found by number or business reference', async () => {
    const sandbox = await start();
    for (let i = 1; i <= 12; i += 1) {
      await createInvoice(sandbox, 'single', singleInvoice({ businessReference: `ORDER-${i}` }));
    }
    await call(sandbox, 'POST', '/__sandbox/invoices/1000003/pay');
    const numbers = (body: { invoices: { invoiceNumber: string }[] }) =>
      body.invoices.map((invoice) => invoice.invoiceNumber);
    const page = (await call(sandbox, 'GET', '/__sandbox/dashboard?limit=3')).body;
    expect(numbers(page)).toEqual(['1000012', '1000011', '1000010']);
    expect(page.matching).toBe(12);
    expect(page.statistics.allInvoices.totalCount).toBe(12);

    const paid = (await call(sandbox, 'GET', '/__sandbox/dashboard?status=PAID')).body;
    expect(numbers(paid)).toEqual(['1000003']);
    const byReference = (await call(sandbox, 'GET', '/__sandbox/dashboard?search=ORDER-1')).body;
    expect(numbers(byReference)).toEqual(['1000012', '1000011', '1000010', '1000001']);
    expect(byReference.matching).toBe(4);
    const byNumber = (await call(sandbox, 'GET', '/__sandbox/dashboard?search=1000007')).body;
    expect(numbers(byNumber)).toEqual(['1000007']);
    // Neither a wildcard nor another case finds anything.
    for (const search of ['ORDER-%', 'order-1', '_']) {
      expect(
        (await call(sandbox, 'GET', `/__sandbox/dashboard?search=${encodeURIComponent(search)}`)).body.matching,
        search,
      ).toBe(0);
    }
    const refused = await call(sandbox, 'GET', '/__sandbox/dashboard?status=LOST');
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].field).toBe('status');
  });

  it('tells an open page when an invoice is created, here or by another process sharing the state file', async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'einvoice-dashboard-')), 'sandbox.sqlite');
    const sandbox = await start({ stateFile });
    const other = await startSandbox({ stateFile });
    try {
      const stream = await openEvents(sandbox);
      expect(stream.response.statusCode).toBe(200);
      expect(stream.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(stream.received()).not.toContain('event: change');
      await createInvoice(sandbox, 'single', singleInvoice({ businessReference: 'HERE' }));
      await stream.events('change', 1);
      await createInvoice(other, 'single', singleInvoice({ businessReference: 'ELSEWHERE' }));
      expect(await stream.events('change', 2)).toMatch(/^id: 2\nevent: change\ndata: 2\n\n/m);
    } finally {
      await other.close();
    }
  });

  it('closes with a page still following it', async () => {
    const sandbox = await start();
    const stream = await openEvents(sandbox);
    const ended = new Promise((resolve) => stream.response.on('close', resolve));
    await sandbox.close();
    await ended;
  });
});
