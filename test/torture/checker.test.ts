import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkTrial, summaryKeys, type Guarantee } from '../../scripts/torture/checker.ts';
import type { SandboxRequest, ServiceInvoice } from '../../scripts/torture/service.ts';
import type { RunLog, Trial } from '../../scripts/torture/trial.ts';

// The torture run's checker, on histories written by hand: each guarantee it reads is shown failing on a history that
// breaks it, so the checker is proven without a sweep.

const token = 'sbx-checker-token-0123';
const note = (record: number) => `torture 1 invoice ${record}`;
const body = (record: number) => JSON.stringify({ amount: 10 + record, note: note(record) });
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A journal's lines: the plan of `count` records, then `steps` as [type, record]. */
function journal(count: number, steps: Array<[string, number]> = []): string {
  const planned = Array.from(
    { length: count },
    (_, index) => `{"type":"planned","key":"k${index + 1}","record":${index + 1},"body":${body(index + 1)}}`,
  );
  const after = steps.map(([type, record]) => JSON.stringify({ type, key: `k${record}` }));
  return [...planned, ...after].map((line) => `${line}\n`).join('');
}

/** A request the service received. */
function request(
  seq: number,
  fields: Partial<SandboxRequest> & { record?: number; refundOf?: string },
): SandboxRequest {
  const { record, refundOf, ...rest } = fields;
  return {
    seq,
    receivedAt: '2030-01-01T00:00:00.000Z',
    endedAt: '2030-01-01T00:00:00.010Z',
    method: 'POST',
    path: refundOf ? `/invoice-api/invoices/${refundOf}/refund` : '/invoice-api/invoices/single',
    bodySha256: record === undefined ? null : sha256(body(record)),
    bodyBytes: record === undefined ? null : body(record).length,
    fault: null,
    committed: true,
    status: 201,
    ended: 'answered',
    invoiceNumber: refundOf ?? null,
    ...rest,
  };
}

function invoice(number: string, record: number, status = 'UNPAID'): ServiceInvoice {
  return { invoiceNumber: number, status, amount: 10 + record, refunds: [], request: { note: note(record) } };
}

/** A run's --json document. */
function json(records: Array<{ status: string; invoiceNumber?: string }>, kind: 'create' | 'refund' = 'create') {
  const summary: Record<string, unknown> = { total: records.length };
  for (const key of Object.values(summaryKeys)) summary[key] = 0;
  for (const { status } of records) summary[summaryKeys[status]!] = (summary[summaryKeys[status]!] as number) + 1;
  const lines = records.map((record, index) => JSON.stringify({ record: index + 1, row: index + 2, ...record }));
  return `{"summary":${JSON.stringify({ kind, ...summary })},\n"records":[\n${lines.join(',\n')}\n]}\n`;
}

function run(fields: Partial<RunLog> & Pick<RunLog, 'run' | 'firstSeq' | 'lastSeq'>): RunLog {
  return {
    phase: 'create',
    args: [],
    marks: [],
    exitCode: 0,
    signal: null,
    stdout: '',
    stderr: '',
    journal: '',
    truth: [],
    ...fields,
  };
}

/** `invoices export --format ndjson` of `rows` (invoices made by a bulk run), with its line on stderr. */
function ledgerOf(rows: Array<Record<string, unknown>>): string {
  const lines = rows.map((row) => `${JSON.stringify({ kind: 'single', refundStatus: null, ...row })}\n`);
  return `${lines.join('')}Exported ${rows.length} invoices.\n`;
}

/** Two invoices to create, both created by one run whose requests were answered. */
function cleanTrial(): Trial {
  const invoices = [invoice('1000001', 1), invoice('1000002', 2)];
  return {
    seed: 1,
    token,
    creates: [
      { record: 1, row: 2, note: note(1), amount: '11.00', businessReference: 'T1-1' },
      { record: 2, row: 3, note: note(2), amount: '12.00' },
    ],
    createFile: 'invoices.csv',
    refunds: [],
    setupSeq: 0,
    history: [request(1, { record: 1, invoiceNumber: '1000001' }), request(2, { record: 2, invoiceNumber: '1000002' })],
    invoices,
    ledger: ledgerOf([
      { invoiceNumber: '1000001', status: 'created', source: 'invoices.csv:2' },
      { invoiceNumber: '1000002', status: 'created', source: 'invoices.csv:3' },
    ]),
    runs: [
      run({
        run: 1,
        firstSeq: 1,
        lastSeq: 2,
        stdout: json([
          { status: 'created', invoiceNumber: '1000001' },
          { status: 'created', invoiceNumber: '1000002' },
        ]),
        journal: journal(2, [
          ['sent', 1],
          ['sent', 2],
          ['created', 1],
          ['created', 2],
        ]),
        truth: invoices,
      }),
    ],
  };
}

const broken = (trial: Trial): Guarantee[] => [...new Set(checkTrial(trial).map((violation) => violation.guarantee))];

describe('the torture checker', () => {
  it('passes a history in which every guarantee held', () => {
    expect(checkTrial(cleanTrial())).toEqual([]);
  });

  it('flags two invoices of one record, with the requests that made them in order', () => {
    const trial = cleanTrial();
    trial.history.push(request(3, { record: 2, fault: 'drop-after-commit', status: null, ended: 'dropped' }));
    trial.invoices.push(invoice('1000003', 2));
    trial.runs[0]!.lastSeq = 3;
    const [violation, resent, ...others] = checkTrial(trial);
    expect(others.map((other) => other.guarantee)).not.toContain('one-invoice');
    expect(resent).toMatchObject({
      guarantee: 'one-invoice',
      message: 'request #3 sends it again after #2, which may have been carried out',
    });
    expect(violation).toMatchObject({
      guarantee: 'one-invoice',
      subject: 'invoice record 2 (no businessReference)',
      message: 'the service holds 2 invoices of it: 1000002, 1000003',
    });
    expect(violation?.evidence).toEqual([
      expect.stringMatching(
        /^#2 \(run 1\) POST \/invoice-api\/invoices\/single body \w{8}: no fault, committed, answered 201/,
      ),
      expect.stringMatching(/^#3 \(run 1\) .*: fault drop-after-commit, committed, dropped/),
    ]);
  });

  it('flags a refund sent again after one that may have been carried out, not after a 429 or the merchant\'s "no"', () => {
    const refundTrial = (first: Partial<SandboxRequest>, marks: RunLog['marks'] = []): Trial => {
      const paid = {
        ...invoice('1000001', 1, 'REFUNDED'),
        refunds: [{ amount: 5, reason: 'r', orderReferenceNumber: '3', at: '' }],
      };
      return {
        ...cleanTrial(),
        creates: [],
        refunds: [{ record: 1, invoiceNumber: '1000001', amount: '5', reason: 'r', orderReferenceNumber: '3' }],
        history: [
          request(1, { refundOf: '1000001', committed: false, ...first }),
          request(2, { refundOf: '1000001', status: 200 }),
        ],
        invoices: [paid],
        runs: [
          run({ run: 1, phase: 'refund', firstSeq: 1, lastSeq: 1, exitCode: 6 }),
          run({
            run: 2,
            phase: 'refund',
            firstSeq: 2,
            lastSeq: 2,
            marks,
            stdout: json([{ status: 'refunded' }], 'refund'),
            truth: [paid],
          }),
        ],
      };
    };
    const dropped = checkTrial(refundTrial({ fault: 'drop', status: null, ended: 'dropped' }));
    expect(dropped).toContainEqual(
      expect.objectContaining({
        guarantee: 'no-refund-resend',
        subject: 'refund record 1 (invoice 1000001)',
        message: 'request #2 refunds it again after #1, which may have been carried out',
      }),
    );
    expect(broken(refundTrial({ fault: '503', status: 503 }))).toContain('no-refund-resend');
    expect(broken(refundTrial({ fault: '429', status: 429 }))).not.toContain('no-refund-resend');
    const no = [{ record: 1, done: false, flag: ['--mark-not-refunded', '1000001'] as [string, string] }];
    expect(broken(refundTrial({ fault: 'drop', status: null, ended: 'dropped' }, no))).not.toContain(
      'no-refund-resend',
    );
  });

  it('flags a report that counts a record twice, leaves one out, or says what the service does not hold', () => {
    const twice = cleanTrial();
    twice.runs[0]!.stdout = json([
      { status: 'created', invoiceNumber: '1000001' },
      { status: 'created', invoiceNumber: '1000001' },
    ]);
    expect(checkTrial(twice)).toContainEqual(
      expect.objectContaining({
        guarantee: 'true-outcome',
        subject: 'invoice record 2 (no businessReference)',
        message: 'create run 1 says "created" (1000001), but the service holds it as 1000002',
      }),
    );
    const counted = cleanTrial();
    counted.runs[0]!.stdout = counted.runs[0]!.stdout.replace('"created":2', '"created":3');
    expect(checkTrial(counted)).toContainEqual(
      expect.objectContaining({ guarantee: 'true-outcome', message: 'its summary counts 3 created, its records 2' }),
    );
    const missing = cleanTrial();
    missing.runs[0]!.stdout = missing.runs[0]!.stdout.replace(/,\n\{"record":2[^\n]*/, '');
    expect(checkTrial(missing)).toContainEqual(
      expect.objectContaining({ message: 'its report holds the records 1, not each of 1 to 2 once' }),
    );
    const failed = cleanTrial();
    failed.runs[0]!.stdout = json([{ status: 'created', invoiceNumber: '1000001' }, { status: 'failed' }]);
    failed.runs[0]!.exitCode = 6;
    expect(checkTrial(failed)).toContainEqual(
      expect.objectContaining({ message: 'create run 1 says "failed", but the service holds it done' }),
    );
  });

  it('flags a resumed run that sends a record its journal already held created', () => {
    const trial = cleanTrial();
    trial.history.push(request(3, { record: 1, status: 409, committed: false }));
    trial.runs.push(run({ run: 2, firstSeq: 3, lastSeq: 3, journal: trial.runs[0]!.journal, truth: trial.invoices }));
    expect(checkTrial(trial)).toContainEqual(
      expect.objectContaining({
        guarantee: 'no-resend-after-done',
        subject: 'invoice record 1 (T1-1)',
        message: 'create run 1 finished it (its journal says so), and request #3 sent it again',
      }),
    );
  });

  it('flags an answer turned back into "uncertain", in a later report or in the journal', () => {
    const later = cleanTrial();
    later.runs.push(
      run({
        run: 2,
        firstSeq: 3,
        lastSeq: 2,
        exitCode: 6,
        stdout: json([{ status: 'created-earlier', invoiceNumber: '1000001' }, { status: 'uncertain' }]),
        journal: later.runs[0]!.journal,
        truth: later.invoices,
      }),
    );
    expect(checkTrial(later)).toContainEqual(
      expect.objectContaining({
        guarantee: 'answer-kept',
        message: 'create run 1 had it done, and create run 2 says "uncertain"',
      }),
    );
    const journaled = cleanTrial();
    journaled.runs[0]!.journal += '{"type":"uncertain","key":"k2"}\n';
    expect(broken(journaled)).toEqual(['answer-kept']);
    const ledger = cleanTrial();
    ledger.ledger = ledgerOf([
      { invoiceNumber: '1000001', status: 'created', source: 'invoices.csv:2' },
      { invoiceNumber: null, status: 'uncertain', source: 'invoices.csv:3' },
    ]);
    expect(checkTrial(ledger)).toEqual([
      {
        guarantee: 'answer-kept',
        subject: 'invoice record 2 (no businessReference)',
        message: 'the service holds it as 1000002, and the ledger holds invoices.csv:3 uncertain',
        evidence: [],
      },
    ]);
  });

  it('flags the merchant token in any output', () => {
    const trial = cleanTrial();
    trial.runs[0]!.stderr = `GET /invoice-api with Bearer ${token}\n`;
    expect(checkTrial(trial)).toEqual([
      {
        guarantee: 'no-secret',
        subject: 'the stderr of run 1',
        message: 'it holds the merchant token',
        evidence: ['GET /invoice-api with Bearer <TOKEN>'],
      },
    ]);
  });

  it('flags a record sent again after the merchant marked it done', () => {
    const trial = cleanTrial();
    const first = trial.runs[0]!;
    first.stdout = json([{ status: 'created', invoiceNumber: '1000001' }, { status: 'uncertain' }]);
    first.exitCode = 6;
    first.journal = journal(2, [
      ['sent', 1],
      ['sent', 2],
      ['created', 1],
      ['uncertain', 2],
    ]);
    trial.history[1] = request(2, { record: 2, fault: 'drop-after-commit', status: null, ended: 'dropped' });
    trial.history.push(request(3, { record: 2, committed: false, status: 500 }));
    trial.runs.push(
      run({
        run: 2,
        firstSeq: 3,
        lastSeq: 3,
        marks: [{ record: 2, done: true, flag: ['--mark-created', '3'] }],
        stdout: json([{ status: 'created-earlier', invoiceNumber: '1000001' }, { status: 'created-earlier' }]),
        journal: `${first.journal}{"type":"created","key":"k2","invoiceNumber":"1000002"}\n`,
        truth: trial.invoices,
      }),
    );
    expect(checkTrial(trial)).toContainEqual(
      expect.objectContaining({
        guarantee: 'marks-kept',
        subject: 'invoice record 2 (no businessReference)',
        message: '--mark-created 3 was given to create run 2, and request #3 sent it again',
      }),
    );
  });

  it('flags an invoice without a businessReference sent again after a request that may have made it, unless the merchant said "not created", and then once only', () => {
    /** Record 2 (no businessReference) dropped before its commit in run 1, then sent in run 2 and maybe run 3. */
    const resent = (marks: RunLog['marks'], third?: Partial<SandboxRequest>): Trial => {
      const trial = cleanTrial();
      const first = trial.runs[0]!;
      first.exitCode = 6;
      first.stdout = json([{ status: 'created', invoiceNumber: '1000001' }, { status: 'uncertain' }]);
      first.journal = journal(2, [
        ['sent', 1],
        ['sent', 2],
        ['created', 1],
        ['uncertain', 2],
      ]);
      trial.history[1] = request(2, { record: 2, fault: 'drop', committed: false, status: null, ended: 'dropped' });
      trial.history.push(request(3, { record: 2, ...third }));
      trial.runs.push(
        run({
          run: 2,
          firstSeq: 3,
          lastSeq: 3,
          marks,
          stdout: json([
            { status: 'created-earlier', invoiceNumber: '1000001' },
            { status: 'created', invoiceNumber: '1000002' },
          ]),
          journal: `${first.journal}{"type":"sent","key":"k2"}\n{"type":"created","key":"k2"}\n`,
          truth: trial.invoices,
        }),
      );
      return trial;
    };
    const no: RunLog['marks'] = [{ record: 2, done: false, flag: ['--mark-not-created', '3'] }];
    expect(checkTrial(resent([]))).toContainEqual(
      expect.objectContaining({
        guarantee: 'one-invoice',
        subject: 'invoice record 2 (no businessReference)',
        message: 'request #3 sends it again after #2, which may have been carried out',
      }),
    );
    expect(checkTrial(resent(no))).toEqual([]);
    // Sent once more on the merchant's word, then again in the same run after a time-out.
    const twice = resent(no, { fault: 'hang', committed: false, status: null, ended: 'hung' });
    twice.history.push(request(4, { record: 2 }));
    twice.runs[1]!.lastSeq = 4;
    expect(checkTrial(twice)).toContainEqual(
      expect.objectContaining({
        guarantee: 'marks-kept',
        message:
          'request #4 sends it again after #3, which may have been carried out, with no word of the merchant since',
      }),
    );
    // The merchant's "not created", and the run sends nothing of it.
    const kept = resent(no);
    kept.history.pop();
    kept.runs[1]!.stdout = json([{ status: 'created-earlier', invoiceNumber: '1000001' }, { status: 'uncertain' }]);
    kept.runs[1]!.exitCode = 6;
    expect(checkTrial(kept)).toContainEqual(
      expect.objectContaining({
        guarantee: 'marks-kept',
        message: '--mark-not-created 3 was given to create run 2, and it was not sent again ("uncertain")',
      }),
    );
  });

  it('flags a ledger with two entries of one invoice, one missing, a refund it does not hold, or an entry left uncertain', () => {
    const two = cleanTrial();
    two.ledger = ledgerOf([
      { invoiceNumber: '1000001', status: 'created', source: 'invoices.csv:2' },
      { invoiceNumber: '1000002', status: 'created', source: 'invoices.csv:3' },
      { invoiceNumber: null, status: 'not-created', source: 'invoices.csv:3' },
    ]);
    expect(checkTrial(two)).toEqual([
      {
        guarantee: 'one-entry',
        subject: 'the ledger',
        message: "its export holds 3 invoices, and the service 2 of the file's records",
        evidence: [],
      },
      {
        guarantee: 'one-entry',
        subject: "the ledger's entries of invoices.csv:3",
        message: '2 entries hold it',
        evidence: [],
      },
    ]);
    const missing = cleanTrial();
    missing.ledger = ledgerOf([{ invoiceNumber: '1000001', status: 'created', source: 'invoices.csv:2' }]);
    expect(broken(missing)).toEqual(['one-entry']);
    const refunded = cleanTrial();
    const paid = {
      ...invoice('1000002', 2, 'REFUNDED'),
      refunds: [{ amount: 6, reason: 'r', orderReferenceNumber: '3', at: '' }],
    };
    refunded.invoices[1] = paid;
    refunded.refunds = [
      { record: 1, invoiceNumber: '1000002', amount: '6.00', reason: 'r', orderReferenceNumber: '3' },
    ];
    refunded.history.push(request(3, { refundOf: '1000002', status: 200 }));
    refunded.runs.push(
      run({
        run: 2,
        phase: 'refund',
        firstSeq: 3,
        lastSeq: 3,
        stdout: json([{ status: 'refunded' }], 'refund'),
        truth: refunded.invoices,
      }),
    );
    expect(checkTrial(refunded)).toEqual([
      {
        guarantee: 'one-entry',
        subject: 'refund record 1 (invoice 1000002)',
        message: 'the service refunded 6.00, and the ledger holds its refund nowhere (no amount)',
        evidence: [],
      },
    ]);
    refunded.ledger = ledgerOf([
      { invoiceNumber: '1000001', status: 'created', source: 'invoices.csv:2' },
      {
        invoiceNumber: '1000002',
        status: 'refunded',
        refundStatus: 'refunded',
        refundAmount: '6.00',
        source: 'invoices.csv:3',
      },
    ]);
    expect(checkTrial(refunded)).toEqual([]);
    const left = cleanTrial();
    left.ledger = ledgerOf([
      { invoiceNumber: '1000001', status: 'created', source: 'invoices.csv:2' },
      { invoiceNumber: '1000002', status: 'created', source: 'invoices.csv:3', refundStatus: 'uncertain' },
    ]);
    expect(checkTrial(left)).toEqual([
      {
        guarantee: 'answer-kept',
        subject: "the ledger's entry invoices.csv:3",
        message: 'it is refund-uncertain after the last run ended with every record done',
        evidence: [],
      },
    ]);
  });
});
