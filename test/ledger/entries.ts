import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InvoiceEntry, RefundEntry } from '../../src/ledger/entries.js';
import { Ledger } from '../../src/ledger/ledger.js';

// Steps of requests as the commands hand them to the ledger, and a new ledger to record them in.

export const service = 'https://service.example/';

/** An instant `minutes` after a fixed start, so that steps are ordered as a test says. */
export function minute(minutes: number): string {
  return new Date(Date.UTC(2026, 10, 1, 9, minutes)).toISOString();
}

/** A step of the request `key` to create an invoice with the businessReference `reference`. */
export function invoiceStep(key: string, reference: string | undefined, step: Partial<InvoiceEntry>): InvoiceEntry {
  const body = {
    customer: { name: 'Amr Hassan', mobile: '+201012345678' },
    amount: 99.5,
    sendingDate: '2026-11-01',
    expiryDate: '2026-12-01T00:00:00.000Z',
    note: 'Order',
    ...(reference === undefined ? {} : { businessReference: reference }),
  };
  return {
    type: 'invoice',
    key,
    kind: 'single',
    status: 'created',
    bodyJson: JSON.stringify(body),
    sentAt: minute(0),
    source: { via: 'bulk', file: 'invoices.csv', line: 2, run: key.split(':')[1] ?? 'run' },
    service,
    ...step,
  };
}

/** A step of the request `key` to refund `invoiceNumber` of `amount`. */
export function refundStep(key: string, invoiceNumber: string, step: Partial<RefundEntry>): RefundEntry {
  return {
    type: 'refund',
    key,
    invoiceNumber,
    status: 'refunded',
    bodyJson: JSON.stringify({ amount: '99.50', reason: 'Returned', orderReferenceNumber: '3712350' }),
    sentAt: minute(0),
    source: { via: 'bulk', file: 'refunds.csv', line: 2 },
    service,
    ...step,
  };
}

/** A new ledger in a folder of its own. */
export async function newLedger(): Promise<Ledger> {
  const file = join(mkdtempSync(join(tmpdir(), 'einvoice-ledger-')), 'local.sqlite');
  return (await Ledger.open(file, { create: true })) as Ledger;
}
