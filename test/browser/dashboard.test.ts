import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Workbook } from '@cj-tech-master/excelts';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runSpawned, type SpawnedRun } from '../helpers/spawned.js';
import { tempHome } from '../helpers/home.js';
import { writeProfile } from '../helpers/profile.js';

// The dashboard as a merchant's developer sees it: `einvoice sandbox ui` in one terminal, Debian's Chromium on its
// page, and `einvoice create` in another terminal. Every wait is on something the page or the sandbox does.

/** Debian's Chromium; playwright-core never downloads a browser of its own. */
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Where the screenshots go, to be looked at. */
const screenshotFolder = join(tmpdir(), 'einvoice-dashboard-screenshots');

let home: string;
let dashboard: string;
let origin: string;
let sandboxUi: SpawnedRun | undefined;
let browser: Browser;
const pages: Page[] = [];
/** What a page reported that it should not: console errors (a refused Content-Security-Policy among them). */
const problems: string[] = [];
/** Every address the pages asked for. */
const requested: string[] = [];

beforeAll(async () => {
  home = tempHome();
  // The merchant's zone: the page and its download show times on its clock, and the CLI reads days in it.
  writeProfile(home, { timeZone: 'Africa/Cairo' });
  // Its output is the token it made.
  sandboxUi = runSpawned(['sandbox', 'ui', '--port', '0', '--json'], { home, printsToken: true });
  await sandboxUi.waitFor('stdout', '\n');
  const firstLine = sandboxUi.output.stdout.slice(0, sandboxUi.output.stdout.indexOf('\n'));
  ({ dashboard, url: origin } = JSON.parse(firstLine) as { dashboard: string; url: string });
  browser = await chromium.launch({
    executablePath: chromiumPath,
    // This machine reaches no network: Chromium's own background connections would only fail.
    args: [
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  if (sandboxUi) {
    sandboxUi.child.kill('SIGTERM');
    await sandboxUi;
  }
});

afterEach(async () => {
  await Promise.all(pages.splice(0).map((page) => page.close()));
  expect(problems.splice(0)).toEqual([]);
  expect(requested.splice(0).filter((address) => !address.startsWith(`${origin}/`))).toEqual([]);
});

/** A new page on the dashboard, once it shows the invoices. */
async function openDashboard(options: { width?: number; colorScheme?: 'light' | 'dark' } = {}): Promise<Page> {
  const page = await browser.newPage({
    viewport: { width: options.width ?? 1280, height: 900 },
    colorScheme: options.colorScheme ?? 'light',
  });
  pages.push(page);
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('request', (request) => requested.push(request.url()));
  await page.goto(dashboard);
  await page.waitForSelector('#live[data-live="live"]');
  await page.waitForSelector('li[data-invoice]');
  return page;
}

/** Creates a single invoice with the CLI, in another process, as a merchant would in another terminal. */
async function createWithCli(flags: string[]): Promise<string> {
  const result = await runSpawned(
    [
      ...['create', 'single', '--customer-mobile', '+201012345678', '--sending-date', 'today'],
      ...['--release-date', 'today', '--expiry-date', '+30d', '--yes', '--json'],
      ...flags,
    ],
    { env: { HOME: home } },
  );
  expect(result.code, result.stderr).toBe(0);
  return String((JSON.parse(result.stdout) as { invoiceNumber: string }).invoiceNumber);
}

/** The statistics row of a group: its count and amount as the page shows them. */
async function statistic(page: Page, group: string) {
  const row = page.locator(`#stats tr[data-group="${group}"]`);
  return { count: await row.locator('.count').textContent(), amount: await row.locator('.amount').textContent() };
}

/** Waits until a statistics group shows `count`. */
async function statisticReaches(page: Page, group: string, count: number) {
  await page.waitForFunction(
    ([group, count]) => document.querySelector(`#stats tr[data-group="${group}"] .count`)?.textContent === count,
    [group, String(count)] as const,
  );
}

/**
 * Follows the page's "Download as Excel" link: the file's name and its rows' cell values, and the type the sandbox
 * serves the link's address as (a download fires no response event, so the page asks for it once more).
 */
async function download(page: Page) {
  const link = page.getByRole('link', { name: 'Download as Excel' });
  const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const workbook = new Workbook();
  await workbook.xlsx.readFile(await file.path());
  const rows = (workbook.getWorksheet(1)?.getSheetValues().slice(1) ?? []) as unknown[][];
  const href = (await link.getAttribute('href')) ?? '';
  return {
    url: file.url(),
    type: await page.evaluate(async (href) => (await fetch(href)).headers.get('content-type'), href),
    name: file.suggestedFilename(),
    rows: rows.map((cells) => cells.slice(1)),
  };
}

describe('the dashboard in a browser', () => {
  it('shows invoices created with the CLI in another terminal as they are made, without reloading', async () => {
    const page = await openDashboard();
    expect(await page.locator('li[data-invoice]').count()).toBe(8);
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    const all = await statistic(page, 'allInvoices');

    const first = await createWithCli(['--customer-name', 'Amr Hassan', '--amount', '150', '--note', 'Order 1043']);
    await page.waitForSelector(`li[data-invoice="${first}"]`);
    const second = await createWithCli(['--customer-name', 'Hoda Nabil', '--amount', '99.50', '--note', 'Order 1044']);
    await page.waitForSelector(`li[data-invoice="${second}"]`);

    const numbers = await page
      .locator('li[data-invoice]')
      .evaluateAll((cards) => cards.map((card) => card.dataset.invoice));
    expect(numbers.slice(0, 2)).toEqual([second, first]);
    const card = page.locator(`li[data-invoice="${second}"]`);
    expect(await card.locator('[data-field="customer"]').textContent()).toBe('Hoda Nabil');
    expect(await card.locator('[data-field="amount"]').textContent()).toBe('99.50');
    expect(await card.locator('[data-field="state"]').textContent()).toBe('Unpaid');
    await statisticReaches(page, 'allInvoices', Number(all.count) + 2);
    expect(await page.locator('#status').textContent()).toMatch(/New invoice/);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  });

  it('pays an invoice from the page, and the statistics follow', async () => {
    const number = await createWithCli(['--customer-name', 'Mona Adel', '--amount', '1000', '--note', 'Desk']);
    const page = await openDashboard();
    const paid = await statistic(page, 'paidInvoices');
    const unpaid = await statistic(page, 'unpaidInvoices');

    await page.getByRole('button', { name: `Pay invoice ${number}` }).click();
    await statisticReaches(page, 'paidInvoices', Number(paid.count) + 1);
    await statisticReaches(page, 'unpaidInvoices', Number(unpaid.count) - 1);
    const card = page.locator(`li[data-invoice="${number}"]`);
    expect(await card.locator('[data-field="state"]').textContent()).toBe('Paid');
    expect(await card.locator('[data-field="orderReferenceNumber"]').textContent()).toMatch(/^\d+$/);
    expect(await page.locator('#status').textContent()).toMatch(new RegExp(`Invoice ${number} is paid`));
    const amount = (await statistic(page, 'paidInvoices')).amount ?? '';
    expect(Number(amount.replace(/,/g, ''))).toBeCloseTo(Number((paid.amount ?? '').replace(/,/g, '')) + 1000, 2);

    // The refund goes through the service's own route; the card and the statistics follow it too.
    const refunded = await statistic(page, 'refundedInvoices');
    await card.getByText('Refund…').click();
    await card.getByLabel('Reason').fill('Returned');
    await card.getByRole('button', { name: 'Refund', exact: true }).click();
    await statisticReaches(page, 'refundedInvoices', Number(refunded.count) + 1);
    expect(await card.locator('[data-field="state"]').textContent()).toBe('Refunded');
  });

  it("shows an Arabic invoice's SMS and e-mail right to left, with the items in Arabic", async () => {
    const number = await createWithCli([
      ...['--customer-name', 'Omar Khaled', '--customer-email', 'omar@example.com', '--lang', 'ar-eg'],
      ...[
        '--method',
        'BOTH',
        '--note',
        'Office chairs',
        '--item',
        'code=CH-01,qty=2,price=250,en=Office chair,ar=كرسي مكتب',
      ],
    ]);
    const page = await openDashboard();
    const card = page.locator(`li[data-invoice="${number}"]`);
    await card.getByText('Notifications (2)').click();
    const phone = card.locator('.sms .phone');
    await phone.waitFor({ state: 'visible' });
    expect(await phone.getAttribute('dir')).toBe('rtl');
    expect(await phone.getAttribute('lang')).toBe('ar');
    expect(await phone.evaluate((element) => getComputedStyle(element).direction)).toBe('rtl');
    expect(await phone.locator('.bubble').textContent()).toMatch(/^مرحباً Omar Khaled، فاتورتك رقم/);

    const mail = card.locator('.email .mail-body');
    expect(await mail.evaluate((element) => getComputedStyle(element).direction)).toBe('rtl');
    expect(await mail.textContent()).toContain('• كرسي مكتب × 2 بسعر 250.00');
    // The page itself stays English, left to right.
    expect(await page.evaluate(() => getComputedStyle(document.body).direction)).toBe('ltr');
  });

  it("shows times on the merchant's clock, naming its zone, as its workbook download does", async () => {
    const number = await createWithCli([
      ...['--customer-name', 'Nour Samir', '--amount', '40', '--note', 'Later', '--business-reference', 'TZ-1'],
      // Days of Cairo, where the profile says the merchant is (UTC+3 in summer): not UTC's.
      ...['--sending-date', '2030-05-12', '--release-date', '2030-05-12', '--expiry-date', '2030-06-11'],
    ]);
    const page = await openDashboard();
    const card = page.locator(`li[data-invoice="${number}"]`);
    expect(await card.locator('[data-field="releaseDate"]').textContent()).toBe('2030-05-12 00:00 Africa/Cairo');
    expect(await card.locator('[data-field="expiryDate"]').textContent()).toBe('2030-06-11 23:59 Africa/Cairo');
    expect(await page.locator('#now').textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} Africa\/Cairo$/);

    await page.getByLabel('Find').fill('TZ-1');
    await page.waitForSelector('#download[href="/__sandbox/ui/invoices.xlsx?search=TZ-1"]');
    const [header = [], row = []] = (await download(page)).rows;
    // A date-time cell holds the wall clock the page shows.
    expect(row[header.indexOf('releaseDate')]).toEqual(new Date('2030-05-12T00:00:00.000Z'));
    expect(row[header.indexOf('expiryDate')]).toEqual(new Date('2030-06-11T23:59:59.999Z'));
  });

  it('keeps a date of an Arabic message whole, its year first, as it keeps the amount', async () => {
    const number = await createWithCli([
      ...['--customer-name', 'Omar Khaled', '--customer-email', 'omar@example.com', '--lang', 'ar-eg'],
      ...['--method', 'BOTH', '--amount', '1250.50', '--note', 'Rent'],
      ...['--sending-date', '2030-05-12', '--release-date', '2030-05-12', '--expiry-date', '2030-06-11'],
    ]);
    const page = await openDashboard();
    const card = page.locator(`li[data-invoice="${number}"]`);
    await card.getByText('Notifications (2)').click();
    for (const text of [card.locator('.sms .bubble'), card.locator('.email .mail-body')]) {
      await text.waitFor({ state: 'visible' });
      // Where each piece of the date and the amount is drawn: the year left of the day, on one line.
      const drawn = await text.evaluate((element) => {
        const leftOf = (piece: string, part: string) => {
          const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const at = (node.textContent ?? '').indexOf(piece);
            if (at < 0) continue;
            const range = document.createRange();
            const start = at + piece.indexOf(part);
            range.setStart(node, start);
            range.setEnd(node, start + part.length);
            const box = range.getBoundingClientRect();
            return { left: box.left, top: box.top };
          }
          return undefined;
        };
        return {
          year: leftOf('2030-06-11', '2030'),
          day: leftOf('2030-06-11', '-11'),
          thousands: leftOf('1,250.50', '1,'),
          cents: leftOf('1,250.50', '.50'),
        };
      });
      expect(drawn.year?.top).toBe(drawn.day?.top);
      expect(drawn.year?.left).toBeLessThan(drawn.day?.left ?? 0);
      expect(drawn.thousands?.left).toBeLessThan(drawn.cents?.left ?? 0);
    }
    // Each is its own left-to-right piece, and the words around them stay right to left.
    expect(await card.locator('.sms .bubble bdi[dir="ltr"]').allTextContents()).toEqual(
      expect.arrayContaining([number, '1,250.50', '2030-06-11']),
    );
    expect(await card.locator('.sms .phone').evaluate((element) => getComputedStyle(element).direction)).toBe('rtl');
  });

  it("shows the merchant's expiry e-mail, expires an invoice, moves the clock, and filters by state", async () => {
    const result = await runSpawned(
      [
        ...['create', 'single', '--customer-name', 'Sara Ibrahim', '--customer-mobile', '+201034567890'],
        ...['--amount', '75.25', '--note', 'Toner', '--sending-date', 'today', '--release-date', 'today'],
        ...['--expiry-date', '+3d', '--yes', '--json', '--file', '-'],
      ],
      { env: { HOME: home }, input: JSON.stringify({ alertMerchantUponExpiry: true }) },
    );
    expect(result.code, result.stderr).toBe(0);
    const number = String((JSON.parse(result.stdout) as { invoiceNumber: string }).invoiceNumber);
    const page = await openDashboard();
    const card = page.locator(`li[data-invoice="${number}"]`);
    await card.locator('summary', { hasText: 'Notifications' }).click();
    const merchantMail = card.locator('.email[data-to="merchant"]');
    expect(await merchantMail.locator('figcaption').textContent()).toMatch(/preview, not in the outbox/);

    await card.getByRole('button', { name: `Expire invoice ${number}` }).click();
    await page.waitForSelector(`li[data-invoice="${number}"][data-state="EXPIRED"]`);
    const expiredCard = page.locator(`li[data-invoice="${number}"]`);
    expect(await expiredCard.locator('details.messages').getAttribute('open')).not.toBeNull();
    expect(await expiredCard.locator('.email[data-to="merchant"] figcaption').textContent()).toMatch(/sent /);
    expect(await expiredCard.locator('.email[data-to="merchant"] .subject').textContent()).toBe(
      `Invoice ${number} expired unpaid`,
    );

    const before = await page.locator('#now').getAttribute('datetime');
    await page.getByLabel('Advance by').selectOption('7d');
    await page.getByRole('button', { name: 'Advance the clock' }).click();
    await page.waitForFunction((before) => document.querySelector('#now')?.getAttribute('datetime') !== before, before);
    const after = await page.locator('#now').getAttribute('datetime');
    expect(Date.parse(after ?? '') - Date.parse(before ?? '')).toBeGreaterThanOrEqual(7 * 86_400_000);

    await page.getByLabel('State').selectOption('EXPIRED');
    const states = await page
      .locator('li[data-invoice]')
      .evaluateAll((cards) => cards.map((card) => card.dataset.state));
    expect(states.length).toBeGreaterThan(0);
    expect(new Set(states)).toEqual(new Set(['EXPIRED']));
  });

  it('offers the invoices it shows, by search or by state, as a workbook to download', async () => {
    const number = await createWithCli([
      ...['--customer-name', 'ليلى سمير', '--amount', '321.50', '--note', 'Lamp'],
      ...['--business-reference', 'XL-DOWNLOAD-1'],
    ]);
    const page = await openDashboard();
    const link = page.getByRole('link', { name: 'Download as Excel' });
    expect(await link.getAttribute('href')).toBe('/__sandbox/ui/invoices.xlsx');

    await page.getByLabel('Find').fill('XL-DOWNLOAD-1');
    await page.waitForSelector('#download[href="/__sandbox/ui/invoices.xlsx?search=XL-DOWNLOAD-1"]');
    const searched = await download(page);
    expect(searched.url).toBe(`${origin}/__sandbox/ui/invoices.xlsx?search=XL-DOWNLOAD-1`);
    expect(searched.type).toContain('spreadsheetml');
    expect(searched.name).toBe('invoices.xlsx');
    const [header = [], ...rows] = searched.rows;
    expect(rows).toHaveLength(1);
    const cell = (name: string) => rows[0]?.[header.indexOf(name)];
    expect(cell('invoiceNumber')).toBe(number);
    expect(cell('customer.name')).toBe('ليلى سمير');
    expect(cell('amount')).toBe(321.5);
    expect(cell('businessReference')).toBe('XL-DOWNLOAD-1');

    await page.getByLabel('Find').fill('');
    await page.getByLabel('State').selectOption('UNPAID');
    await page.waitForSelector('#download[href="/__sandbox/ui/invoices.xlsx?status=UNPAID"]');
    const shown = await page
      .locator('li[data-invoice]')
      .evaluateAll((cards) => cards.map((card) => card.dataset.invoice));
    const byState = await download(page);
    const [stateHeader = [], ...stateRows] = byState.rows;
    expect(new Set(stateRows.map((row) => row[stateHeader.indexOf('status')]))).toEqual(new Set(['UNPAID']));
    expect(stateRows.map((row) => row[stateHeader.indexOf('invoiceNumber')])).toEqual(shown);
    expect(shown).toContain(number);
  });

  it('shows text from an invoice as text, never as markup', async () => {
    const name = '<img src=x onerror="document.title=1"> <b>Nadia</b>';
    const number = await createWithCli(['--customer-name', name, '--amount', '5', '--note', '<script>1</script>']);
    const page = await openDashboard();
    const card = page.locator(`li[data-invoice="${number}"]`);
    await card.locator('summary', { hasText: 'Notifications' }).click();
    expect(await card.locator('[data-field="customer"]').textContent()).toBe(name);
    expect(await card.locator('.bubble').textContent()).toContain(`Hello ${name}, invoice ${number}`);
    expect(await card.locator('img, b, script').count()).toBe(0);
    expect(await page.title()).toBe('einvoice sandbox');
  });

  it('works from the keyboard', async () => {
    const number = await createWithCli(['--customer-name', 'Karim Fathy', '--amount', '10', '--note', 'Pens']);
    const page = await openDashboard();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to the invoices');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('invoices-heading');
    // Tab onwards to the new invoice's Cancel button and press it.
    const cancel = page.getByRole('button', { name: `Cancel invoice ${number}` });
    let presses = 0;
    while (!(await cancel.evaluate((button) => button === document.activeElement))) {
      expect(presses++, 'Tab presses to reach the Cancel button').toBeLessThan(60);
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    await page.waitForSelector(`li[data-invoice="${number}"][data-state="CANCELED"]`);
    // The card drawn again keeps the focus, on its heading.
    expect(await page.evaluate(() => document.activeElement?.closest('li')?.dataset.invoice)).toBe(number);
  });

  it('is readable at desktop width and at 320 px, light and dark (screenshots)', async () => {
    mkdirSync(screenshotFolder, { recursive: true });
    for (const [width, colorScheme] of [
      [1280, 'light'],
      [1280, 'dark'],
      [320, 'light'],
      [320, 'dark'],
    ] as const) {
      const page = await openDashboard({ width, colorScheme });
      // The Arabic invoice's messages open, as a developer checking them would have them.
      const arabic = page.locator('li[data-invoice]:has(.email[data-lang="ar-eg"])').first();
      await arabic.locator('summary', { hasText: 'Notifications' }).click();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      const path = join(screenshotFolder, `dashboard-${width}-${colorScheme}.png`);
      await page.screenshot({ path, fullPage: true });
      expect(readFileSync(path).subarray(1, 4).toString()).toBe('PNG');
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(background).toBe(colorScheme === 'dark' ? 'rgb(21, 23, 26)' : 'rgb(244, 245, 247)');
    }
  });
});
