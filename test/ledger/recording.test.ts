import { afterEach, describe, expect, it } from 'vitest';
import type { Ledger } from '../../src/ledger/ledger.js';
import { invoiceStep, minute, newLedger, refundStep, service } from './entries.js';

// One entry per invoice, never backwards: each guarantee of recording.ts, each test failing when its line is removed.

const opened: Ledger[] = [];
afterEach(() => {
  for (const ledger of opened.splice(0)) ledger.close();
});

async function ledger(): Promise<Ledger> {
  const made = await newLedger();
  opened.push(made);
  return made;
}

const statusOf = (found: Ledger, reference: string) => found.find(reference).map((one) => one.invoice.status);

describe('an invoice is one entry however many requests met it', () => {
  it('counts five invoices sent by two runs of two journals once, however often both are recorded again', async () => {
    const books = await ledger();
    const runA = [1, 2, 3, 4, 5].map((n) =>
      invoiceStep(`journal:A:${n}`, `REF-${n}`, { invoiceNumber: `100000${n}`, sentAt: minute(n) }),
    );
    // The same sheet again, from another journal: the service says each already existed.
    const runB = [1, 2, 3, 4, 5].map((n) =>
      invoiceStep(`journal:B:${n}`, `REF-${n}`, {
        invoiceNumber: `100000${n}`,
        alreadyExisted: true,
        sentAt: minute(10 + n),
      }),
    );
    for (const steps of [runA, runB, runB, runA]) books.record(steps);
    expect([...books.list({})]).toHaveLength(5);
    expect([...books.each({})]).toHaveLength(5);
    const [one] = books.find('REF-3');
    // The entry is the request that created it, not a later one the service said it already held.
    expect(one?.invoice).toMatchObject({ status: 'created', invoiceNumber: '1000003', decided: null });
    expect(one?.invoice.source).toBe('invoices.csv:2');
    expect(one?.history.map((step) => [step.key, step.status, step.decided])).toEqual([
      ['journal:A:3', 'created', null],
      ['journal:B:3', 'created', 'the service already held it when it was sent again'],
    ]);
  });

  it('joins a request the service said it already held, without its number, to the same invoice by rule 2.3.2', async () => {
    const books = await ledger();
    books.record([invoiceStep('journal:A:1', 'REF-1', { invoiceNumber: '1000001' })]);
    books.record([invoiceStep('journal:B:1', 'REF-1', { alreadyExisted: true, sentAt: minute(5) })]);
    expect([...books.list({})]).toHaveLength(1);
    expect(books.find('1000001')[0]?.history).toHaveLength(2);
  });

  it('keeps a record whose outcome is unknown an entry of its own until an answer names its invoice', async () => {
    const books = await ledger();
    books.record([invoiceStep('journal:A:1', 'REF-1', { status: 'uncertain', error: 'time-out' })]);
    const [uncertain] = books.find('REF-1');
    expect(uncertain?.invoice.invoiceNumber).toBeNull();
    // Another journal creates it meanwhile: a second entry, as nothing says the first is the same invoice yet.
    books.record([invoiceStep('journal:B:1', 'REF-1', { invoiceNumber: '1000001', sentAt: minute(5) })]);
    expect([...books.list({})]).toHaveLength(2);
    // The first journal's rerun hears that the invoice already existed: its entry joins the invoice.
    books.record([
      invoiceStep('journal:A:1', 'REF-1', { invoiceNumber: '1000001', alreadyExisted: true, sentAt: minute(9) }),
    ]);
    expect([...books.list({})].map((invoice) => invoice.invoiceNumber)).toEqual(['1000001']);
    const [joined] = books.find(uncertain?.invoice.id as string);
    expect(joined?.invoice).toMatchObject({ invoiceNumber: '1000001', status: 'created' });
    expect(joined?.history.map((step) => step.key)).toEqual(['journal:B:1', 'journal:A:1']);
  });
});

describe('never backwards', () => {
  it('an invoice first uncertain, then found by a rerun, then its older journal copy imported: created', async () => {
    const books = await ledger();
    const lost = invoiceStep('journal:A:1', 'REF-1', { status: 'uncertain', error: 'time-out', sentAt: minute(1) });
    books.record([lost]);
    books.record([invoiceStep('journal:A:1', 'REF-1', { invoiceNumber: '1000001', sentAt: minute(2) })]);
    books.record([lost]);
    expect(statusOf(books, 'REF-1')).toEqual(['created']);
  });

  it('an older step of a request changes nothing: a refusal stays a refusal', async () => {
    const books = await ledger();
    const refused = invoiceStep('journal:A:1', 'REF-1', { status: 'refused', error: 'HTTP 400', sentAt: minute(2) });
    books.record([refused]);
    // A copy of the journal from the earlier run, which lost its answer.
    books.record([invoiceStep('journal:A:1', 'REF-1', { status: 'uncertain', error: 'reset', sentAt: minute(1) })]);
    expect(statusOf(books, 'REF-1')).toEqual(['refused']);
  });

  it("an attempt's answer is never turned back into uncertain by another account of the same attempt", async () => {
    const books = await ledger();
    books.record([invoiceStep('journal:A:1', 'REF-1', { status: 'refused', error: 'HTTP 400', sentAt: minute(1) })]);
    // A copy of the journal taken while the request was out: sent, no answer yet.
    books.record([invoiceStep('journal:A:1', 'REF-1', { status: 'uncertain', error: 'sent', sentAt: minute(1) })]);
    expect(statusOf(books, 'REF-1')).toEqual(['refused']);
  });

  it("a later attempt's unknown outcome is told: a refused record sent again is uncertain", async () => {
    const books = await ledger();
    books.record([invoiceStep('journal:A:1', undefined, { status: 'refused', error: 'HTTP 503', sentAt: minute(1) })]);
    books.record([invoiceStep('journal:A:1', undefined, { status: 'uncertain', error: 'reset', sentAt: minute(2) })]);
    expect([...books.list({})].map((invoice) => invoice.status)).toEqual(['uncertain']);
  });

  it("the service's refund stands against the merchant's word and a later refusal of it", async () => {
    const books = await ledger();
    books.record([refundStep('journal:R:1', '1000001', { sentAt: minute(1) })]);
    const marked = books.mark(
      [{ type: 'refund', key: 'journal:R:1', status: 'not-refunded', decided: 'not refunded, as the merchant said' }],
      minute(2),
    );
    expect(marked).toEqual([]);
    books.record([
      refundStep('journal:R:1', '1000001', { status: 'refused', error: 'is REFUNDED', sentAt: minute(3) }),
    ]);
    expect(books.refundsOf('1000001').map((refund) => refund.status)).toEqual(['refunded']);
  });
});

describe("the merchant's word", () => {
  it('replaces an earlier word, whatever the service said between', async () => {
    const books = await ledger();
    const key = 'journal:R:1';
    books.record([refundStep(key, '1000001', { status: 'uncertain', error: 'time-out', sentAt: minute(1) })]);
    const word = (status: string, at: number) =>
      books.mark([{ type: 'refund', key, status, decided: `${status}, as the merchant said` }], minute(at));
    expect(word('not-refunded', 2)).toEqual([key]);
    // Sent again on that word, and refused: it had been made after all.
    books.record([refundStep(key, '1000001', { status: 'refused', error: 'is REFUNDED', sentAt: minute(3) })]);
    expect(word('refunded', 4)).toEqual([key]);
    expect(books.refundsOf('1000001')).toMatchObject([
      { status: 'refunded', decided: 'refunded, as the merchant said' },
    ]);
    expect(word('not-refunded', 5)).toEqual([key]);
    expect(books.refundsOf('1000001')).toMatchObject([{ status: 'not-refunded' }]);
  });
});

const sandbox = 'http://127.0.0.1:4010/';

/** OLD as invoice 1000009 of a sandbox's first state, refunded; then NEW as 1000009 of its state after a reset. */
function recordAcrossReset(books: Ledger): void {
  const before = { service: sandbox, sandboxState: 'first' };
  const after = { service: sandbox, sandboxState: 'second' };
  books.record([invoiceStep('one:a', 'OLD', { invoiceNumber: '1000009', ...before })]);
  books.record([refundStep('one:r', '1000009', { ...before, sentAt: minute(1) })]);
  books.record([invoiceStep('one:b', 'NEW', { invoiceNumber: '1000009', ...after, sentAt: minute(2) })]);
}

describe('sandboxes that number their invoices anew', () => {
  it('keeps the invoices of a reset sandbox apart from the new ones with the same numbers', async () => {
    const books = await ledger();
    recordAcrossReset(books);
    expect(statusOf(books, 'OLD')).toEqual(['refunded']);
    expect(statusOf(books, 'NEW')).toEqual(['created']);
    expect(books.currentScope(sandbox)).toBe(`${sandbox} (sandbox state second)`);
    // A refund whose answer names no state is of the state the service last answered from.
    books.record([refundStep('one:s', '1000009', { service: sandbox, sentAt: minute(3), status: 'uncertain' })]);
    expect(statusOf(books, 'NEW')).toEqual(['refund-uncertain']);
    expect(statusOf(books, 'OLD')).toEqual(['refunded']);
  });

  it('an invoice first uncertain in a ledger that knew no state joins the state its answer names: its refund finds it', async () => {
    const books = await ledger();
    const sandbox = 'http://127.0.0.1:4010/';
    // A run killed before any answer: its request is known only from its journal, with no state named.
    books.record([invoiceStep('one:a', 'REF-1', { service: sandbox, status: 'uncertain', sentAt: minute(1) })]);
    books.record([
      invoiceStep('one:a', 'REF-1', {
        service: sandbox,
        sandboxState: 'first',
        invoiceNumber: '1000009',
        at: minute(2),
      }),
    ]);
    books.record([refundStep('one:r', '1000009', { service: sandbox, sandboxState: 'first', sentAt: minute(3) })]);
    expect(statusOf(books, 'REF-1')).toEqual(['refunded']);
    expect([...books.list({})]).toHaveLength(1);
    // The sandbox reset: a request sent before its first answer is recorded in the state last heard of, and its
    // answer, from the new state, brings it there.
    books.record([invoiceStep('two:a', 'REF-2', { service: sandbox, status: 'uncertain', sentAt: minute(4) })]);
    books.record([
      invoiceStep('two:a', 'REF-2', {
        service: sandbox,
        sandboxState: 'second',
        invoiceNumber: '1000009',
        at: minute(5),
      }),
    ]);
    books.record([refundStep('two:r', '1000009', { service: sandbox, sandboxState: 'second', sentAt: minute(6) })]);
    expect(statusOf(books, 'REF-2')).toEqual(['refunded']);
    expect([...books.list({})]).toHaveLength(2);
  });

  it('an invoice "already existed" before the service named any state is of the first state it names', async () => {
    const books = await ledger();
    const sandbox = 'http://127.0.0.1:4010/';
    books.record([
      invoiceStep('one:a', 'REF-1', { service: sandbox, invoiceNumber: '1000004', alreadyExisted: true }),
      invoiceStep('one:b', 'REF-2', { service: sandbox, sandboxState: 'first', invoiceNumber: '1000005' }),
    ]);
    books.record([refundStep('one:r', '1000004', { service: sandbox, sandboxState: 'first', sentAt: minute(3) })]);
    expect(statusOf(books, 'REF-1')).toEqual(['refunded']);
    expect(books.currentScope(sandbox)).toBe(`${sandbox} (sandbox state first)`);
  });

  it('an older journal of an earlier state, recorded later, does not make that state the latest', async () => {
    const books = await ledger();
    books.record([
      invoiceStep('one:b', 'NEW', { invoiceNumber: '7', service: sandbox, sandboxState: 'second', sentAt: minute(5) }),
    ]);
    books.record([
      invoiceStep('journal:old:1', 'OLD', {
        invoiceNumber: '7',
        service: sandbox,
        sandboxState: 'first',
        sentAt: minute(1),
      }),
      refundStep('one:r', '7', { service: sandbox, sentAt: minute(6), status: 'uncertain' }),
    ]);
    expect(statusOf(books, 'NEW')).toEqual(['refund-uncertain']);
    expect(statusOf(books, 'OLD')).toEqual(['created']);
  });

  it('keeps one scope per service when none names a state', async () => {
    const books = await ledger();
    books.record([invoiceStep('one:a', 'A', { invoiceNumber: '7' })]);
    books.record([refundStep('one:r', '7', { sentAt: minute(1) })]);
    expect(statusOf(books, 'A')).toEqual(['refunded']);
    expect(books.currentScope(service)).toBe(service);
  });
});

describe('what a reconciliation reads', () => {
  it('streams one row per invoice with its reference, amount, status, refunded amount and sending date', async () => {
    const books = await ledger();
    books.record([invoiceStep('journal:A:1', 'REF-1', { invoiceNumber: '1000001', sentAt: minute(1) })]);
    books.record([
      invoiceStep('journal:B:1', 'REF-1', { invoiceNumber: '1000001', alreadyExisted: true, sentAt: minute(2) }),
    ]);
    books.record([invoiceStep('journal:A:2', 'REF-2', { invoiceNumber: '1000002', sentAt: minute(3) })]);
    books.record([refundStep('one:r', '1000001', { sentAt: minute(4) })]);
    books.record([refundStep('one:s', '1000002', { sentAt: minute(5), status: 'refused', error: 'not PAID' })]);
    const rows = books.invoicesToReconcile();
    expect(rows.next().value).toMatchObject({
      invoiceNumber: '1000001',
      businessReference: 'REF-1',
      amountMinor: 9950,
      status: 'refunded',
      refundedMinor: 9950,
      sendingDate: '2026-11-01',
    });
    expect([...rows]).toMatchObject([{ invoiceNumber: '1000002', status: 'created', refundedMinor: 0 }]);
    expect([...books.invoicesToReconcile({ since: minute(3) })].map((row) => row.invoiceNumber)).toEqual(['1000002']);
    expect([...books.invoicesToReconcile({ until: minute(2) })].map((row) => row.invoiceNumber)).toEqual(['1000001']);
  });

  it("reads only the numbering each service uses now: a reset sandbox's invoices and refunds are not the new ones", async () => {
    const books = await ledger();
    recordAcrossReset(books);
    books.record([invoiceStep('one:c', 'ELSE', { invoiceNumber: '1000009', sentAt: minute(3) })]);
    expect([...books.invoicesToReconcile()]).toMatchObject([
      { businessReference: 'NEW', status: 'created', refundedMinor: 0 },
      { businessReference: 'ELSE', status: 'created' },
    ]);
    expect(books.invoicesOfEarlierNumberings()).toBe(1);
    expect(books.invoicesOfEarlierNumberings({ since: minute(1) })).toBe(0);
  });
});
