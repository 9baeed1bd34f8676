import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { invoicesByNote, merchantWord, reportOf, runEinvoice, type Ended } from './merchant.ts';
import type { Phase, Scenario } from './scenario.ts';
import { Service } from './service.ts';
import type { Mark, RunLog, Trial } from './trial.ts';
import {
  createRecords,
  refundRecords,
  refundTargets,
  writeCreateFile,
  writeRefundFile,
  type CreateRecord,
  type RefundRecord,
} from './workload.ts';

// One seed, from an empty service to the checker's evidence: the service with its faults, the paid invoices the
// refunds are of, then the creates and the refunds, each run again until it ends, as a merchant would.

/** The most runs of one file before the seed is called unfinished. */
const maxRuns = 12;

/** What the rig needs to run einvoice. */
export interface Rig {
  /** The command that runs einvoice: the built CLI on this Node. */
  command: [string, string[]];
}

/** Runs the scenario in a folder of its own; returns what the checker reads, and the folder. */
export async function runSeed(scenario: Scenario, rig: Rig): Promise<{ trial: Trial; folder: string }> {
  const folder = mkdtempSync(join(tmpdir(), `einvoice-torture-${scenario.seed}-`));
  const home = join(folder, 'home');
  mkdirSync(home);
  const token = `torture-${scenario.seed}-${process.pid}-${Date.now().toString(36)}`;
  // A clean environment, as CI gives one: nothing of the developer's shell but its zone and locale (so that
  // `TZ=Africa/Cairo npm run torture` runs on Cairo's clock), no terminal, the token from a variable.
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_STATE_HOME: join(home, 'state'),
    XDG_CONFIG_HOME: join(home, 'config'),
    CI: 'true',
    MERCHANT_TOKEN: token,
    ...Object.fromEntries(
      ['TZ', 'LANG', 'LC_ALL'].flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])),
    ),
  };
  const service = await Service.start(rig.command, join(folder, 'service.sqlite'), token, env);
  try {
    writeFileSync(
      join(folder, '.einvoicerc.json'),
      JSON.stringify({
        defaultEnv: 'local',
        timeZone: 'Africa/Cairo',
        currency: 'EGP',
        environments: { local: { baseUrl: service.url, tokenEnv: 'MERCHANT_TOKEN' } },
      }),
      { mode: 0o600 },
    );
    const creates = createRecords(scenario);
    const paid = await payTargets(service, scenario);
    const setupSeq = await service.quiet(0);
    await service.setFaults({
      faults: scenario.faults.rates,
      latencyMs: scenario.faults.latencyMs,
      seed: scenario.faults.seed,
    });

    const createFile = await writeCreateFile(folder, scenario.creates.format, creates);
    const trial: Trial = {
      seed: scenario.seed,
      token,
      creates,
      createFile,
      refunds: [],
      runs: [],
      history: [],
      setupSeq,
      invoices: [],
      ledger: '',
    };
    const context = { scenario, rig, service, folder, env, trial };
    await runUntilDone(context, 'create', createFile);
    // The customers of some of the invoices just made pay them, and they are refunded too.
    paid.push(...(await payCreated(service, scenario, creates)));
    trial.refunds = refundRecords(scenario, paid);
    const refundFile = await writeRefundFile(folder, scenario.refunds.format, trial.refunds);
    await runUntilDone(context, 'refund', refundFile);

    await service.quiet(0);
    trial.history = await service.requests();
    trial.invoices = await service.invoices();
    const exported = await runEinvoice(rig.command, ['invoices', 'export', '--format', 'ndjson'], { cwd: folder, env });
    trial.ledger = exported.stdout + exported.stderr;
    return { trial, folder };
  } finally {
    await service.stop();
  }
}

/** A paid invoice the refund file refunds. */
type Paid = { invoiceNumber: string; amount: string; orderReferenceNumber: string };

/** Creates and pays invoices for the refund file, before any fault is on. */
async function payTargets(service: Service, scenario: Scenario): Promise<Paid[]> {
  const day = 86_400_000;
  const paid: Paid[] = [];
  for (const target of refundTargets(scenario)) {
    const invoiceNumber = await service.createInvoice({
      customer: { name: `Customer ${target.note}`, mobile: '+201001234567' },
      amount: Number(target.amount),
      sendingDate: new Date().toISOString().slice(0, 10),
      releaseDate: new Date(Date.now() - 60_000).toISOString(),
      expiryDate: new Date(Date.now() + 30 * day).toISOString(),
      note: target.note,
    });
    const { orderReferenceNumber } = await service.pay(invoiceNumber);
    paid.push({ invoiceNumber, amount: target.amount, orderReferenceNumber });
  }
  return paid;
}

/** Pays the invoices of the create file's records the scenario refunds, those the service holds once. */
async function payCreated(service: Service, scenario: Scenario, creates: CreateRecord[]): Promise<Paid[]> {
  const byNote = invoicesByNote(await service.invoices());
  const paid: Paid[] = [];
  for (const record of scenario.refunds.ofCreates) {
    const { note, amount } = creates[record - 1]!;
    const [invoice, ...others] = byNote.get(note) ?? [];
    if (!invoice || others.length > 0 || invoice.status !== 'UNPAID') continue;
    const { orderReferenceNumber } = await service.pay(invoice.invoiceNumber);
    paid.push({ invoiceNumber: invoice.invoiceNumber, amount, orderReferenceNumber });
  }
  return paid;
}

interface Context {
  scenario: Scenario;
  rig: Rig;
  service: Service;
  folder: string;
  env: NodeJS.ProcessEnv;
  trial: Trial;
}

/** Runs the file of `phase` again and again, with the merchant's word where a run asks for it, until it ends. */
async function runUntilDone(context: Context, phase: Phase, file: string): Promise<void> {
  const { scenario, rig, service, folder, env, trial } = context;
  const workload: { creates: CreateRecord[]; refunds: RefundRecord[] } = trial;
  let marks: Mark[] = [];
  let hasty = scenario.hastyMerchant;
  for (let attempt = 1; attempt <= maxRuns; attempt++) {
    const run = trial.runs.length + 1;
    const report = `${phase}-run-${run}.report.ndjson`;
    const args = [
      ...(phase === 'create' ? ['create', 'single'] : ['refund']),
      ...['--file', file, '--yes', '--json', '--report', report],
      ...sendingFlags(scenario),
      // Under --strict a refund the ledger warns of is held back: the workload asks none a merchant would not ask.
      ...(phase === 'refund' && scenario.strict ? ['--strict'] : []),
      ...(phase === 'create' && scenario.creates.referencePrefix ? ['--reference-prefix', `T${scenario.seed}-`] : []),
      ...marks.flatMap((mark) => mark.flag),
    ];
    const kill = scenario.kill?.phase === phase && attempt === 1 ? scenario.kill : undefined;
    const before = await service.quiet(0);
    const ended: Ended = await runEinvoice(rig.command, args, {
      cwd: folder,
      env,
      ...(kill ? { stopAt: { ...kill, after: before, service } } : {}),
    });
    const lastSeq = await service.quiet(before);
    const journalFile = join(folder, `${file}.local.journal.ndjson`);
    const log: RunLog = {
      phase,
      run,
      args,
      marks,
      ...(kill && ended.stopped ? { stopped: { signal: kill.signal, afterRequests: kill.afterRequests } } : {}),
      exitCode: ended.exitCode,
      signal: ended.signal,
      stdout: ended.stdout,
      stderr: ended.stderr,
      firstSeq: before + 1,
      lastSeq,
      journal: existsSync(journalFile) ? readFileSync(journalFile, 'utf8') : '',
      ...(existsSync(join(folder, report)) ? { reportFile: readFileSync(join(folder, report), 'utf8') } : {}),
      truth: await service.invoices(),
    };
    trial.runs.push(log);
    if (ended.exitCode === 0) return;
    if (ended.exitCode !== null && ![5, 6, 130, 143].includes(ended.exitCode)) {
      trial.unfinished = `${phase} run ${run} ended with exit ${ended.exitCode}: ${lastLine(ended.stderr)}`;
      return;
    }
    const word = merchantWord(phase, reportOf(ended.stdout), log.truth, workload);
    // A hasty merchant retries the job once as it was before looking at what it asks.
    const retryFirst = word.marks.length > 0 && hasty;
    if (word.marks.length > 0) hasty = false;
    marks = retryFirst ? [] : word.marks;
  }
  trial.unfinished = `the ${phase}s did not end in ${maxRuns} runs`;
}

/** The flags of how einvoice sends, from the scenario. */
function sendingFlags(scenario: Scenario): string[] {
  const { concurrency, rate, retries, timeoutSeconds, stopAfterFailures } = scenario.sending;
  return [
    ...['--concurrency', String(concurrency), '--retries', String(retries), '--timeout', String(timeoutSeconds)],
    ...(rate ? ['--rate', String(rate)] : []),
    ...(stopAfterFailures ? ['--stop-after-failures', String(stopAfterFailures)] : []),
  ];
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1) ?? '';
}
