import { invoiceChecking, type InvoiceChecks } from '../../src/bulk/record-check.js';
import type { FieldIssue } from '../../src/errors.js';
import { describe, expect, it } from 'vitest';
import { inShard, planBatch, type PlanOptions } from '../../src/bulk/plan.js';
import { readRecords } from '../../src/sheet/records.js';
import type { JournalState, JournaledRecord } from '../../src/bulk/journal-state.js';
import { chunked, record } from './helpers.js';

const now = new Date('2026-03-10T08:30:00.000Z');

/** A record the plan journaled to send, its body parsed back from its JSON text. */
interface Planned {
  index: number;
  key: string;
  previouslySent: boolean;
  businessReference?: string;
  body: Record<string, unknown>;
}

/** Plans NDJSON text; returns the plan and the `planned` entries it journaled, in order. */
async function plan(
  lines: unknown[],
  options: Partial<Omit<PlanOptions, 'kind'>> & Partial<Omit<InvoiceChecks, 'kind'>> = {},
) {
  const journaled: Array<Omit<Planned, 'index' | 'previouslySent'>> = [];
  const text = lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n');
  const { journal, shard, signal, place, resendUncertain = false, records, now: at = now, ...checks } = options;
  const datesAt = checks.datesAt ?? at;
  const kind = invoiceChecking({ kind: 'single', defaults: {}, flags: {}, ...checks, now: at, datesAt });
  const result = await planBatch({
    kind,
    resendUncertain,
    journal,
    shard,
    signal,
    place,
    records: records ?? readRecords(chunked(text, 64), 'ndjson', 'batch.ndjson'),
    planned: {
      appendPlanned: ({ key, businessReference }, bodyJson) => {
        const body = JSON.parse(bodyJson) as Record<string, unknown>;
        expect(businessReference).toBe(body.businessReference);
        journaled.push({ key, businessReference, body });
      },
      written: () => Promise.resolve(),
    },
  });
  // What the send reads back: each entry with its index in the results, in the plan's order.
  const planned: Planned[] = journaled.map((entry, position) => {
    const index = result.sendOrder[position] as number;
    return { ...entry, index, previouslySent: result.previouslySent.has(index) };
  });
  // The results as a plain list, each made by RecordResults.get().
  // Issues and warnings as messages show them; how they are grouped is the display's.
  const shown = ({ path, message }: FieldIssue) => ({ path, message });
  return {
    ...result,
    issues: result.issues.map(shown),
    warnings: result.warnings.map(shown),
    results: [...result.results],
    planned,
  };
}

function journalOf(entries: JournaledRecord[], resolveDatesAt = now): JournalState {
  return {
    resolveDatesAt,
    kind: 'single',
    records: new Map(entries.map((entry) => [entry.key, entry])),
    damagedLines: 0,
  };
}

describe('validation before anything is sent', () => {
  it('lists every problem of every record with its record number, line and field path', async () => {
    const { issues, results, planned } = await plan([
      record(1),
      '',
      record(2, { items: [{ itemCode: 'A', purchasedQuantity: 1, price: 102, nameEn: 'a' }] }),
      '{"note": ',
      record(4, { customer: { name: 'X' }, colour: 'red' }),
      [1, 2],
    ]);
    expect(issues).toHaveLength(5);
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: 'record 2 (line 3): items[0].nameAr', message: 'is required' },
        { path: 'record 3 (line 4)', message: expect.stringMatching(/^is not valid JSON: /) },
        { path: 'record 4 (line 5): customer.mobile', message: 'is required' },
        { path: 'record 4 (line 5): colour', message: 'is not a known field' },
        { path: 'record 5 (line 6)', message: 'must be a JSON object (one invoice)' },
      ]),
    );
    expect(results.map((result) => result.status)).toEqual(['pending', 'invalid', 'invalid', 'invalid', 'invalid']);
    expect(planned.map((entry) => entry.index)).toEqual([0]);
  });

  it('words a bad date with every form a record may use, relative dates among them', async () => {
    const { issues } = await plan([record(1, { sendingDate: 'next week', expiryDate: '31/12/2030' })]);
    expect(issues).toEqual([
      {
        path: 'record 1 (line 1): sendingDate',
        message: 'must be a date YYYY-MM-DD (e.g. 2026-12-31), today, tomorrow, or +Nd, +Nw, +Nm (e.g. +30d)',
      },
      {
        path: 'record 1 (line 1): expiryDate',
        message:
          'must be a date YYYY-MM-DD, a UTC date-time YYYY-MM-DDThh:mm:ss.sssZ, today, tomorrow, or +Nd, +Nw, +Nm (e.g. +30d)',
      },
    ]);
  });

  it('merges profile defaults < record < flags, resolves dates and computes the amount from the items', async () => {
    const { planned } = await plan(
      [
        record(1, {
          amount: undefined,
          communicationLang: 'ar-eg',
          sendingDate: '+7d',
          releaseDate: 'today',
          expiryDate: '+1m',
          items: [{ itemCode: 'A', purchasedQuantity: 3, price: 0.1, nameEn: 'a', nameAr: 'b' }],
          $schema: 'https://example.com/invoice.schema.json',
        }),
      ],
      { defaults: { communicationLang: 'en-gb', taxes: '14' }, flags: { note: 'From the flag' } },
    );
    expect(planned[0]?.body).toMatchObject({
      amount: 0.3,
      note: 'From the flag',
      communicationLang: 'ar-eg',
      taxes: '14',
      sendingDate: '2026-03-17',
      releaseDate: '2026-03-10T08:30:00.000Z',
      // A relative expiry counts from the sending date, to the end of that day (UTC without a time zone).
      expiryDate: '2026-04-17T23:59:59.999Z',
    });
    expect(planned[0]?.body).not.toHaveProperty('$schema');
  });

  it('does not call the amount missing when it is left to items that cannot be added up', async () => {
    const { amount: _amount, ...withoutAmount } = record(1);
    const badItem = { itemCode: 'A', purchasedQuantity: 1, price: '150.5', nameEn: 'a', nameAr: 'ب' };
    const { issues } = await plan([
      { ...withoutAmount, items: [badItem] },
      { ...withoutAmount, items: [{ ...badItem, price: 150.5 }], note: '' },
      withoutAmount,
    ]);
    expect(issues).toEqual([
      { path: 'record 1 (line 1): items[0].price', message: 'must be a number, not text ("150.5")' },
      { path: 'record 2 (line 2): note', message: 'must not be empty' },
      // Without items, nothing stands for the amount: it is missing.
      { path: 'record 3 (line 3): amount', message: 'is required' },
    ]);
  });

  it('makes an amount that differs from the items invalid, unless the run says which to send', async () => {
    const conflicting = record(1, {
      amount: 50,
      items: [{ itemCode: 'A', purchasedQuantity: 1, price: 10, nameEn: 'a', nameAr: 'b' }],
    });
    const refused = await plan([conflicting]);
    expect(refused.issues).toEqual([
      {
        path: 'record 1 (line 1): amount',
        message: 'is 50.00, the items add up to 10.00: --keep-amount sends 50.00, --amount-from-items sends 10.00',
      },
    ]);
    const kept = await plan([conflicting], { amountChoice: 'keep' });
    expect(kept.planned[0]?.body.amount).toBe(50);
    expect(kept.warnings).toEqual([
      {
        path: 'record 1 (line 1): amount',
        message: "50.00 differs from the items' total 10.00; sent as given (--keep-amount)",
      },
    ]);
    const fromItems = await plan([conflicting], { amountChoice: 'items' });
    expect(fromItems.planned[0]?.body.amount).toBe(10);
    expect(fromItems.warnings.map((warning) => warning.message)).toEqual([
      "50.00 differs from the items' total 10.00; sent as 10.00 (--amount-from-items)",
    ]);
  });

  it('names the flag of a field set by a flag', async () => {
    const { issues } = await plan([record(1), record(2)], { flags: { taxes: '200' } });
    expect(issues.map((issue) => issue.path)).toEqual([
      'record 1 (line 1): taxes (--taxes)',
      'record 2 (line 2): taxes (--taxes)',
    ]);
  });
});

describe('duplicates in the file (rule 2.3.2)', () => {
  it('sends the first of records with the same businessReference, amount and sendingDate, not the later ones', async () => {
    const { results, planned } = await plan([
      record(1, { businessReference: 'A' }),
      record(2, { businessReference: 'A', amount: 101 }),
      record(3, { businessReference: 'A', amount: 999 }),
      record(4, { businessReference: 'A', amount: 101.0, note: 'other note' }),
      record(5),
      record(5),
    ]);
    expect(results.map(({ status, duplicateOf }) => ({ status, duplicateOf }))).toEqual([
      { status: 'pending', duplicateOf: undefined },
      { status: 'duplicate', duplicateOf: 1 },
      { status: 'pending', duplicateOf: undefined },
      { status: 'duplicate', duplicateOf: 1 },
      { status: 'pending', duplicateOf: undefined },
      // Without a businessReference nothing is a duplicate: two equal records are two invoices.
      { status: 'pending', duplicateOf: undefined },
    ]);
    expect(planned).toHaveLength(4);
    expect(new Set(planned.map((entry) => entry.key)).size).toBe(4);
  });

  it('keeps a record repeated word for word a duplicate when a rerun finds the first one created', async () => {
    const same = record(1, { businessReference: 'A' });
    const first = await plan([same, same]);
    expect(first.results.map((result) => result.status)).toEqual(['pending', 'duplicate']);
    const journal = journalOf([
      { key: first.planned[0]!.key, state: 'created', record: 1, businessReference: 'A', invoiceNumber: '1000001' },
    ]);
    const rerun = await plan([same, same], { journal });
    expect(rerun.results.map(({ status, invoiceNumber }) => ({ status, invoiceNumber }))).toEqual([
      { status: 'created-earlier', invoiceNumber: '1000001' },
      { status: 'duplicate', invoiceNumber: undefined },
    ]);
  });

  it('lets a row that could not be read whole take nothing from the journal, though it says the same as a sent row', async () => {
    // A sheet's row 2 with a stray cell, then row 3 saying the same: row 3 is the one sent.
    const rows = (): PlanOptions['records'] =>
      (async function* () {
        const value = record(1, { businessReference: 'A' });
        const stray = [{ path: 'column L', message: 'has a value but no header' }];
        yield [
          { position: 0, line: 2, text: '', value, issues: stray },
          { position: 1, line: 3, text: '', value },
        ];
      })();
    const first = await plan([], { records: rows() });
    expect(first.results.map((result) => result.status)).toEqual(['invalid', 'pending']);
    const journal = journalOf([
      { key: first.planned[0]!.key, state: 'created', record: 2, businessReference: 'A', invoiceNumber: '1000001' },
    ]);
    const rerun = await plan([], { records: rows(), journal });
    expect(rerun.results.map(({ status, invoiceNumber }) => ({ status, invoiceNumber }))).toEqual([
      { status: 'invalid', invoiceNumber: undefined },
      { status: 'created-earlier', invoiceNumber: '1000001' },
    ]);
    expect(rerun.toSend).toBe(0);
  });

  it('names the record a duplicate repeats as the file names it, with its line', async () => {
    const { results } = await plan([
      '',
      record(1, { businessReference: 'A' }),
      '',
      record(2, { businessReference: 'A', amount: 101 }),
    ]);
    expect(results[1]).toMatchObject({
      status: 'duplicate',
      line: 4,
      duplicateOf: 1,
      duplicateOfLine: 2,
      error: 'same businessReference, amount and sendingDate as record 1 (line 2)',
    });
  });
});

describe('content keys', () => {
  it('are the same in every run, whatever the key order, whitespace or $schema', async () => {
    const first = await plan([record(1), record(2)]);
    const again = await plan([
      `  {"note":"Order 1","expiryDate":"2030-02-01","releaseDate":"2030-01-01","sendingDate":"2030-01-01",` +
        `"amount":101,"customer":{"mobile":"+201001234567","name":"Customer 1"},"$schema":"x"}  `,
      record(2),
    ]);
    expect(again.planned.map((entry) => entry.key)).toEqual(first.planned.map((entry) => entry.key));
    expect(first.planned[0]?.key).not.toBe(first.planned[1]?.key);
  });

  it('follow a record that moved when records were added before it', async () => {
    const first = await plan([record(1), record(2)]);
    const later = await plan([record(0), record(1), record(2)]);
    expect(later.planned.slice(1).map((entry) => entry.key)).toEqual(first.planned.map((entry) => entry.key));
  });

  it('match a changed file against the journal: done, new and changed', async () => {
    const first = await plan([
      record(1, { businessReference: 'R1' }),
      record(2, { businessReference: 'R2' }),
      record(3),
    ]);
    const [one, two, three] = first.planned;
    const journal = journalOf([
      { key: one!.key, state: 'created', record: 1, businessReference: 'R1', invoiceNumber: '1000001' },
      { key: two!.key, state: 'failed', record: 2, businessReference: 'R2', error: 'HTTP 500' },
      { key: three!.key, state: 'created', record: 3, invoiceNumber: '1000003' },
    ]);
    const second = await plan(
      [
        record(1, { businessReference: 'R1' }),
        record(2, { businessReference: 'R2', note: 'fixed' }),
        record(3, { note: 'edited after it was created' }),
        record(4, { businessReference: 'R4' }),
      ],
      { journal },
    );
    expect(second.resume).toEqual({ done: 1, retry: 0, heldUncertain: 0, new: 1, changed: 2 });
    expect(second.results.map((result) => result.status)).toEqual(['created-earlier', 'pending', 'changed', 'pending']);
    expect(second.results[0]?.invoiceNumber).toBe('1000001');
    // The earlier version of record 3 exists: the edited one is not sent as a second invoice.
    expect(second.results[2]?.error).toContain('created it as invoice 1000003');
    expect(second.toSend).toBe(2);
  });

  it('take a record a stopped run planned but never sent as new, and keep holding an edited one', async () => {
    const first = await plan([record(1, { businessReference: 'R1' }), record(2, { businessReference: 'R2' })]);
    const [one, two] = first.planned;
    const edited = await plan([record(1, { businessReference: 'R1', note: 'x' })]);
    const journal = journalOf([
      { key: one!.key, state: 'created', record: 1, businessReference: 'R1', invoiceNumber: '1000001' },
      // Record 1 edited, planned by a run that was refused: its plan stays in the journal, never sent.
      { key: edited.planned[0]!.key, state: 'planned', record: 1, businessReference: 'R1' },
      { key: two!.key, state: 'planned', record: 2, businessReference: 'R2' },
    ]);
    const rerun = await plan(
      [record(1, { businessReference: 'R1', note: 'x' }), record(2, { businessReference: 'R2' })],
      { journal },
    );
    expect(rerun.resume).toEqual({ done: 0, retry: 0, heldUncertain: 0, new: 1, changed: 1 });
    expect(rerun.results.map((result) => result.status)).toEqual(['changed', 'pending']);
    expect(rerun.toSend).toBe(1);
  });
});

describe('records of earlier runs', () => {
  it('resends failed records, resends uncertain ones only with a businessReference or --resend-uncertain', async () => {
    const first = await plan([record(1, { businessReference: 'R1' }), record(2), record(3)]);
    const [withReference, plain, failed] = first.planned;
    const sentBody = { ...plain!.body, note: 'the body as sent' };
    // Read afresh for each run, as a run reads its journal: a plan takes out what it finds.
    const journal = () =>
      journalOf([
        { key: withReference!.key, state: 'uncertain', body: withReference!.body, error: 'dropped' },
        { key: plain!.key, state: 'sent', body: sentBody },
        { key: failed!.key, state: 'failed', error: 'HTTP 503' },
      ]);
    const held = await plan([record(1, { businessReference: 'R1' }), record(2), record(3)], { journal: journal() });
    expect(held.results.map((result) => result.status)).toEqual(['pending', 'uncertain', 'pending']);
    expect(held.resume).toMatchObject({ retry: 2, heldUncertain: 1 });
    expect(held.planned.map((entry) => entry.previouslySent)).toEqual([true, false]);
    // The one that may exist is planned with the very body it was sent with.
    expect(held.planned[0]?.body).toEqual(withReference!.body);

    const forced = await plan([record(1, { businessReference: 'R1' }), record(2), record(3)], {
      journal: journal(),
      resendUncertain: true,
    });
    // A record that may exist is sent again with the very body that was sent.
    expect(forced.planned[1]?.body).toEqual(sentBody);
  });
});

describe('relative dates', () => {
  it('resolve against the planning instant, so the same instant gives the same bodies', async () => {
    const relative = record(1, { sendingDate: 'today', releaseDate: 'today', expiryDate: '+30d' });
    const first = await plan([relative], { now });
    const rerun = await plan([relative], { now: new Date(now) });
    const nextDay = await plan([relative], { now: new Date(now.getTime() + 86_400_000) });
    expect(first.planned[0]?.body.sendingDate).toBe('2026-03-10');
    expect(rerun.planned[0]?.body).toEqual(first.planned[0]?.body);
    expect(nextDay.planned[0]?.body.sendingDate).toBe('2026-03-11');
  });
});

describe('shards', () => {
  it('selects the records whose position modulo N is I-1, so N shards cover the file once', async () => {
    const lines = Array.from({ length: 10 }, (_, index) => record(index + 1));
    const covered: number[] = [];
    for (let index = 1; index <= 3; index++) {
      const shard = await plan(lines, { shard: { index, count: 3 } });
      covered.push(...shard.results.map((result) => result.record));
      expect(shard.results.every((result) => (result.record - 1) % 3 === index - 1)).toBe(true);
    }
    expect(covered.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(inShard(4, { index: 2, count: 3 })).toBe(true);
    expect(inShard(4, undefined)).toBe(true);
  });
});

describe('--reference-prefix', () => {
  it('gives records without a businessReference a stable one from their content and position', async () => {
    const lines = [record(1), record(1), record(2, { businessReference: 'OWN' })];
    const first = await plan(lines, { referencePrefix: 'ci-' });
    const again = await plan(lines, { referencePrefix: 'ci-' });
    const references = first.planned.map((entry) => entry.body.businessReference as string);
    expect(references[0]).toMatch(/^ci-[0-9a-f]{12}$/);
    expect(references[1]).not.toBe(references[0]);
    expect(references[2]).toBe('OWN');
    expect(again.planned.map((entry) => entry.body.businessReference)).toEqual(references);
  });
});
