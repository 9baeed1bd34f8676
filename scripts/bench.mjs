// `npm run bench`: measures einvoice against the goals a merchant would notice, as ratios taken in one run on this
// machine, so the figures do not depend on how fast the machine is, and writes them to docs/performance.md. Uses the
// built CLI (`npm run build` first). It runs on the Node.js that runs it (the project's Node 24 under npm), then once
// more on Node 22 from the npm registry (`--node 22` alone measures only that one; BENCH_QUICK=1 takes fewer runs).
//
//   help       einvoice --help on a terminal / node -e 0 on a terminal                             goal <= 1.5
//   stats      einvoice stats on a terminal / a script that only imports got, commander, cosmiconfig
//              and zod, with the same compile cache                                                  goal <= 1.2
//   bulk       a plain got loop's wall time / the CLI's, 10,000 records, 20 ms latency, c=32         goal >= 0.95
//              the CLI's CPU time (user + sys, by /usr/bin/time) / the got loop's, same runs            goal <= 1.25
//              each for a batch of creates and a batch of refunds, with --no-ledger (the loop keeps none).
//              `--bulk` measures only these.
//   sandbox    the built-in sandbox (its SQLite state file), no latency: a third bulk run of 1,000 / the first
//              (<= 1.3); 100,000 creates at a steady rate (last slice / first >= 0.77); stats with 100,000
//              invoices / with the demo's 8 (<= 1.5); two runs of 1,000 at once / one after the other (< 1).
//              `--sandbox` measures only these.
//   ledger     invoices import of a journal of 1,000,000 entries, peak RSS <= 256 MiB, and its time per entry
//              / that at 100,000 (<= 1.3); on the ledger it made, invoices list --ref X / the same on a ledger of
//              100 (<= 1.5) and invoices export of all of it, peak RSS <= 256 MiB; a bulk run of 5,000 creates
//              @ 20 ms, c=32, with the ledger on: its CPU time / a plain got loop's sending the same bodies
//              (<= 1.25). `npm run bench -- --ledger` measures these alone (a quarter of an hour), in a section of
//              the page of their own.
//
// `npm run bench -- --scale` measures a million records instead (minutes; CI does not run it): a dry run, a real run
// against a stub of the service and a resume of its journal, each with peak RSS <= 512 MiB and a time per record at
// most 1.3x that at 100,000 records; and a dry run of a workbook of a million rows, held to the same goals.
// `npm run bench -- --excel` measures only the workbook.
// `npm run bench -- --reconcile` measures `invoices reconcile` of 1,000,000 orders against a ledger of 1,000,000
// invoices (imported from a journal first): peak RSS <= 512 MiB, and a time per order at most 1.3x that of 100,000
// orders against 100,000 invoices.
// `npm run bench -- --hostile` measures workbooks whose zip directory lies (a worksheet that says 10 KiB and unpacks to
// 600 MB of rows, or to 1.5 GB of one cell): each refused (exit 2), peak RSS <= 512 MiB.

import { Buffer } from 'node:buffer';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  chmodSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setImmediate } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'einvoice.cjs');
/** The oldest Node einvoice supports, from the npm registry: the one .ci/run's end-to-end tests run on too. */
const node22 = `node@${JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).config.oldestNode}`;
const work = mkdtempSync(join(tmpdir(), 'einvoice-bench-'));
const home = join(work, 'home');
const token = 'bench-token-0123456789abcdef';
const quick = process.env.BENCH_QUICK === '1';
const [flag, value] = process.argv.slice(2);
const scale = process.argv.includes('--scale');
/** `--sandbox`: the built-in sandbox's figures alone. */
const sandboxOnly = process.argv.includes('--sandbox');
/** `--ledger`: the merchant's ledger's figures alone. */
const ledgerOnly = process.argv.includes('--ledger');
/** `--bulk`: the bulk runs' figures alone. */
const bulkOnly = process.argv.includes('--bulk');
/** `--excel`: a workbook of a million rows alone. */
const excelOnly = process.argv.includes('--excel');
/** `--hostile`: workbooks whose zip directory lies about their size. */
const hostileOnly = process.argv.includes('--hostile');
/** `--reconcile`: a million orders reconciled against a ledger of a million invoices. */
const reconcileOnly = process.argv.includes('--reconcile');
/** The section of docs/performance.md this run writes. */
const pageSection = scale
  ? 'scale'
  : excelOnly
    ? 'excel'
    : ledgerOnly
      ? 'ledger'
      : hostileOnly
        ? 'hostile'
        : reconcileOnly
          ? 'reconcile'
          : 'goals';
const startupRuns = quick ? 5 : 15;
const bulkRuns = quick ? 1 : 5;
const bulkRecords = 10_000;
const memoryGoalMiB = 512;

if (!existsSync(join(root, 'dist', 'cli.cjs'))) {
  console.error('dist/ is missing: run `npm run build` first.');
  process.exit(1);
}
mkdirSync(home, { recursive: true });

/** Runs a process to its end; resolves with its wall time in milliseconds and its output. */
function timed(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { cwd: options.cwd ?? home, env: options.env ?? benchEnv(), stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0 && !options.allowFailure) {
        reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${stderr.slice(-2000)}`));
      } else resolve({ ms, code, stdout, stderr });
    });
    child.stdin.end();
  });
}

function benchEnv(extra = {}) {
  return { PATH: process.env.PATH ?? '', HOME: home, CI: 'true', NO_COLOR: '1', ...extra };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Starts a long-running process that prints one JSON line when ready; resolves with that line and the process. */
function serve(args, env = benchEnv()) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: home, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let buffered = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      buffered += chunk;
      const newline = buffered.indexOf('\n');
      if (newline !== -1) resolve({ child, ready: JSON.parse(buffered.slice(0, newline)) });
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code} before it was ready`)));
  });
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function useProfile(baseUrl) {
  const file = join(home, '.einvoicerc.json');
  writeFileSync(file, JSON.stringify({ defaultEnv: 'bench', environments: { bench: { baseUrl, token } } }));
  chmodSync(file, 0o600);
}

/** The same command on a pseudo-terminal (util-linux `script`), where merchants run einvoice. */
function onTerminal(command, args, options = {}) {
  const line = [command, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  return timed('script', ['-qec', line, '/dev/null'], options);
}

/**
 * A minimal service: answers each create with the next number, and each refund with `{}`, after `latency` ms; GET
 * /__span tells (and resets) the time from the first request's arrival to the last answer, which is the send phase of
 * a run, and the mean latency it served. Node's timers fire late (a millisecond and more under load), so each delay is the latency less
 * the lateness seen so far: the service is as slow as asked, on average, and no slower.
 */
const stubSource = `
const http = require('node:http');
const latency = Number(process.env.STUB_LATENCY_MS || 0);
let next = 1000001;
let first = 0;
let last = 0;
let lateness = 0;
let served = 0;
let waited = 0;
const server = http.createServer((req, res) => {
  if (req.url === '/__span') {
    res.end(JSON.stringify({ ms: last - first, meanLatencyMs: served ? waited / served : 0 }));
    first = 0;
    served = 0;
    waited = 0;
    return;
  }
  if (!first) first = performance.now();
  req.resume();
  req.on('end', () => {
    const arrived = performance.now();
    const answer = () => {
      const took = performance.now() - arrived;
      served += 1;
      waited += took;
      if (latency > 0) lateness += 0.05 * (took - latency);
      const refund = req.url.endsWith('/refund');
      const body = refund ? '{}' : String(next++);
      res.writeHead(refund ? 200 : 201, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
      last = performance.now();
    };
    if (latency > 0) setTimeout(answer, Math.max(0, latency - lateness)); else answer();
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ url: 'http://127.0.0.1:' + server.address().port })));
process.on('SIGTERM', () => process.exit(0));
`;

/**
 * A plain got loop: posts each line of the file with `concurrency` requests in flight, as fast as it can. A line
 * `NUMBER<TAB>BODY` is the refund of that invoice; any other line is an invoice to create.
 */
const gotLoopSource = `
const { readFileSync } = require('node:fs');
import(${JSON.stringify(join(root, 'node_modules', 'got', 'dist', 'source', 'index.js'))}).then(async ({ default: got }) => {
  const [file, url, concurrency, token] = process.argv.slice(1);
  const bodies = readFileSync(file, 'utf8').trim().split('\\n');
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const line = bodies[next++];
      const tab = line.indexOf('\\t');
      const path = tab === -1 ? '/invoice-api/invoices/single' : '/invoice-api/invoices/' + line.slice(0, tab) + '/refund';
      const body = line.slice(tab + 1);
      await got.post(url + path, {
        body, headers: { 'content-type': 'application/json', authorization: 'Bearer ' + token },
        responseType: 'text', retry: { limit: 0 },
      });
    }
  };
  await Promise.all(Array.from({ length: Number(concurrency) }, worker));
});
`;

/** Records the CLI sends unchanged (dates already in their wire shapes), each with its own businessReference. */
function benchRecord(index, withReference = true) {
  return {
    customer: { name: `Customer ${index}`, email: `c${index}@example.com`, mobile: '+201001234567' },
    amount: 100 + (index % 900),
    sendingDate: '2030-01-01',
    expiryDate: '2030-02-01T23:59:59.999Z',
    releaseDate: '2030-01-01T00:00:00.000Z',
    ...(withReference ? { businessReference: `BENCH-${index}` } : {}),
    note: `Order ${index}`,
    communicationMethod: 'SMS',
    items: [
      { itemCode: 'SKU-1', purchasedQuantity: 2, price: (100 + (index % 900)) / 2, nameEn: 'Shirt', nameAr: 'قميص' },
    ],
    paymentType: 'PUSH_TO_CUSTOMER',
  };
}

/** Writes `count` NDJSON records without holding them all in memory. */
async function writeRecords(path, count, withReference = true, first = 1) {
  const out = createWriteStream(path);
  for (let index = first; index < first + count; index++) {
    if (!out.write(`${JSON.stringify(benchRecord(index, withReference))}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** Wall time and peak RSS (MiB) of `einvoice args`, by /usr/bin/time -v. */
async function measured(args, env = benchEnv(), options = {}) {
  const result = await timed('/usr/bin/time', ['-v', process.execPath, bin, ...args], { env, ...options });
  const kib = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr)?.[1]);
  return { ms: result.ms, mib: kib / 1024, code: result.code, stderr: result.stderr };
}

let journals = 0;
function bulkArgs(file, concurrency, journal = join(work, `journal-${(journals += 1)}.ndjson`)) {
  return [
    'create',
    'single',
    '--file',
    file,
    '--yes',
    '--quiet',
    '--concurrency',
    String(concurrency),
    '--journal',
    journal,
  ];
}

/** `einvoice refund --file` of many refunds, as the bench runs it. */
function refundArgs(file, concurrency) {
  const journal = join(work, `journal-${(journals += 1)}.ndjson`);
  return ['refund', '--file', file, '--yes', '--quiet', '--concurrency', String(concurrency), '--journal', journal];
}

const rows = [];
function report(name, value, goal, ok, detail) {
  rows.push({ name, value, goal, ok, detail });
  console.log(`${name.padEnd(52)} ${value.padStart(10)}   goal ${goal.padEnd(10)} ${ok ? 'ok  ' : 'MISS'}  ${detail}`);
}

const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);

/** Start-up on a terminal: --help against node -e 0, stats against loading its libraries alone. */
async function startup() {
  const node = [];
  const help = [];
  for (let run = 0; run < startupRuns; run++) {
    node.push((await onTerminal(process.execPath, ['-e', '0'])).ms);
    help.push((await onTerminal(process.execPath, [bin, '--help'])).ms);
  }
  const helpRatio = median(help) / median(node);
  report(
    'einvoice --help / node -e 0, on a terminal',
    `${helpRatio.toFixed(2)}x`,
    '<= 1.5',
    helpRatio <= 1.5,
    `${startupRuns} runs each: ${fmt(median(help))} / ${fmt(median(node))}`,
  );

  const sandbox = await serve([bin, 'sandbox', 'serve', '--port', '0', '--json', '--token', token]);
  useProfile(sandbox.ready.url);
  const libraries = join(work, 'libraries.mjs');
  writeFileSync(
    libraries,
    ['got', 'commander', 'cosmiconfig', 'zod']
      .map((name) => `await import(${JSON.stringify(import.meta.resolve(name, join(root, 'package.json')))});`)
      .join('\n'),
  );
  const cached = benchEnv({ NODE_COMPILE_CACHE: join(work, 'compile-cache') });
  // The first run of each writes its compile cache; the runs measured start from it, as a merchant's do.
  await onTerminal(process.execPath, [bin, 'stats']);
  await onTerminal(process.execPath, [libraries], { env: cached });
  const stats = [];
  const baseline = [];
  for (let run = 0; run < startupRuns; run++) {
    baseline.push((await onTerminal(process.execPath, [libraries], { env: cached })).ms);
    stats.push((await onTerminal(process.execPath, [bin, 'stats'])).ms);
  }
  await stop(sandbox.child);
  const statsRatio = median(stats) / median(baseline);
  report(
    'einvoice stats / importing its libraries, on a terminal',
    `${statsRatio.toFixed(2)}x`,
    '<= 1.2',
    statsRatio <= 1.2,
    `${startupRuns} runs each: ${fmt(median(stats))} / ${fmt(median(baseline))}`,
  );
}

/**
 * Wall time and CPU time (user + sys, from the rusage /usr/bin/time reads when the process ends) of a process run to
 * its end, in milliseconds.
 */
async function cpuTimed(command, args, options = {}) {
  const usage = join(work, 'usage.txt');
  const result = await timed('/usr/bin/time', ['-o', usage, '-f', '%U %S', command, ...args], options);
  const [user, sys] = readFileSync(usage, 'utf8').trim().split('\n').at(-1).split(' ').map(Number);
  return { ms: result.ms, cpuMs: (user + sys) * 1000 };
}

/** A refund of invoice `number` as a file of many holds it. */
function benchRefund(number) {
  return { amount: 10 + (number % 90), reason: `Returned ${number}`, orderReferenceNumber: `ORD-${number}` };
}

/** Writes `count` refunds for the CLI (NDJSON) and the same requests for the got loop (`NUMBER<TAB>BODY`). */
function writeRefunds(cliPath, loopPath, count) {
  const numbers = Array.from({ length: count }, (_, index) => String(2000001 + index));
  writeFileSync(cliPath, numbers.map((n) => `${JSON.stringify({ invoiceNumber: n, ...benchRefund(n) })}\n`).join(''));
  writeFileSync(loopPath, numbers.map((n) => `${n}\t${JSON.stringify(benchRefund(n))}\n`).join(''));
}

/**
 * A bulk run of 10,000 creates and one of 10,000 refunds against a service with 20 ms of latency, each beside a
 * plain got loop sending the same requests: wall time (is the CLI as fast?) and CPU time (on a runner whose cores
 * are busy, the CPU a record costs is what sets the pace).
 */
async function bulk() {
  const creates = join(work, 'bulk.ndjson');
  await writeRecords(creates, bulkRecords);
  const refunds = join(work, 'refunds.ndjson');
  const refundRequests = join(work, 'refunds.requests');
  writeRefunds(refunds, refundRequests, bulkRecords);
  const slow = await serve(['-e', stubSource], benchEnv({ STUB_LATENCY_MS: '20' }));
  useProfile(slow.ready.url);
  const batches = [
    // The engine against the loop, like for like: the loop keeps no ledger (its cost is `--ledger`'s figure).
    { name: 'creates', cli: () => [...bulkArgs(creates, 32), '--no-ledger'], loopFile: creates },
    { name: 'refunds', cli: () => [...refundArgs(refunds, 32), '--no-ledger'], loopFile: refundRequests },
  ];
  for (const batch of batches) {
    const cli = [];
    const loop = [];
    for (let run = 0; run < bulkRuns; run++) {
      cli.push(await cpuTimed(process.execPath, [bin, ...batch.cli()]));
      loop.push(await cpuTimed(process.execPath, ['-e', gotLoopSource, batch.loopFile, slow.ready.url, '32', token]));
    }
    const wall = { cli: median(cli.map((run) => run.ms)), loop: median(loop.map((run) => run.ms)) };
    const cpu = { cli: median(cli.map((run) => run.cpuMs)), loop: median(loop.map((run) => run.cpuMs)) };
    const ratio = wall.loop / wall.cli;
    const title = `bulk ${bulkRecords.toLocaleString('en-US')} ${batch.name} @ 20 ms, c=32, no ledger`;
    report(
      `${title}: got loop / CLI`,
      ratio.toFixed(2),
      '>= 0.95',
      ratio >= 0.95,
      `${bulkRuns} runs each: CLI ${fmt(wall.cli)}, got loop ${fmt(wall.loop)}`,
    );
    const cpuRatio = cpu.cli / cpu.loop;
    report(
      `  CPU time: CLI / got loop`,
      `${cpuRatio.toFixed(2)}x`,
      '<= 1.25',
      cpuRatio <= 1.25,
      `CLI ${fmt(cpu.cli)} (${((cpu.cli * 1000) / bulkRecords).toFixed(0)} µs a record), got loop ${fmt(cpu.loop)}`,
    );
  }
  await stop(slow.child);
}

/** A home with no profile: its commands use the built-in sandbox, whose state file is under its XDG_STATE_HOME. */
function builtInHome(name) {
  const folder = join(work, name);
  mkdirSync(folder, { recursive: true });
  const env = benchEnv({ HOME: folder, XDG_STATE_HOME: join(folder, 'state') });
  return { run: (args) => timed(process.execPath, [bin, ...args], { cwd: folder, env }) };
}

/** `count` records from number `first` on, in a file of their own. */
async function recordsFile(name, count, first) {
  const path = join(work, `${name}.ndjson`);
  await writeRecords(path, count, true, first);
  return path;
}

/** The built-in sandbox as it fills: cost per create against its size, stats at size, and two runs at once. */
async function sandboxBench() {
  const concurrency = 8;
  const growing = builtInHome('sandbox-growing');
  const threeRuns = [];
  for (let run = 0; run < 3; run++) {
    const file = await recordsFile(`grow-${run}`, 1000, 1 + run * 1000);
    threeRuns.push((await growing.run(bulkArgs(file, concurrency))).ms);
  }
  const growth = threeRuns[2] / threeRuns[0];
  report(
    'built-in sandbox: third bulk run of 1,000 / the first',
    `${growth.toFixed(2)}x`,
    '<= 1.3',
    growth <= 1.3,
    `runs: ${threeRuns.map(fmt).join(', ')}`,
  );

  // 100,000 invoices in slices of 25,000, then stats against them and against the demo's 8.
  const full = builtInHome('sandbox-full');
  const sliceSize = quick ? 5_000 : 25_000;
  const rates = [];
  for (let slice = 0; slice < 4; slice++) {
    const file = await recordsFile(`full-${slice}`, sliceSize, 1 + slice * sliceSize);
    rates.push(sliceSize / ((await full.run(bulkArgs(file, 32))).ms / 1000));
  }
  const steady = rates[3] / rates[0];
  report(
    `built-in sandbox: ${(4 * sliceSize).toLocaleString('en-US')} creates, last slice's rate / first's`,
    steady.toFixed(2),
    '>= 0.77',
    steady >= 0.77,
    `per second: ${rates.map((rate) => Math.round(rate)).join(', ')}`,
  );
  const empty = builtInHome('sandbox-empty');
  await empty.run(['stats']);
  await full.run(['stats']);
  const statsFull = [];
  const statsEmpty = [];
  for (let run = 0; run < startupRuns; run++) {
    statsEmpty.push((await empty.run(['stats'])).ms);
    statsFull.push((await full.run(['stats'])).ms);
  }
  const atSize = median(statsFull) / median(statsEmpty);
  report(
    `built-in sandbox: stats with ${(4 * sliceSize).toLocaleString('en-US')} invoices / with 8`,
    `${atSize.toFixed(2)}x`,
    '<= 1.5',
    atSize <= 1.5,
    `${startupRuns} runs each: ${fmt(median(statsFull))} / ${fmt(median(statsEmpty))}`,
  );

  // Two runs of 1,000 at once into one state file, against the same two one after the other, taking turns.
  const rounds = quick ? 1 : 3;
  const apartTimes = [];
  const togetherTimes = [];
  for (let round = 0; round < rounds; round++) {
    const apart = builtInHome(`sandbox-apart-${round}`);
    const [a1, b1] = [
      await recordsFile(`apart-${round}-a`, 1000, 1),
      await recordsFile(`apart-${round}-b`, 1000, 1001),
    ];
    const sequentialStarted = performance.now();
    await apart.run(bulkArgs(a1, concurrency));
    await apart.run(bulkArgs(b1, concurrency));
    apartTimes.push(performance.now() - sequentialStarted);
    const together = builtInHome(`sandbox-together-${round}`);
    const [a2, b2] = [
      await recordsFile(`together-${round}-a`, 1000, 1),
      await recordsFile(`together-${round}-b`, 1000, 1001),
    ];
    const concurrentStarted = performance.now();
    await Promise.all([together.run(bulkArgs(a2, concurrency)), together.run(bulkArgs(b2, concurrency))]);
    togetherTimes.push(performance.now() - concurrentStarted);
  }
  const ratio = median(togetherTimes) / median(apartTimes);
  report(
    'built-in sandbox: two bulk runs of 1,000 at once / one by one',
    `${ratio.toFixed(2)}x`,
    '< 1',
    ratio < 1,
    `${rounds} rounds: at once ${fmt(median(togetherTimes))}, one after the other ${fmt(median(apartTimes))}`,
  );
}

/** A million records: dry run, real run against a stub and a resume, each against the same at 100,000. */
async function scaleRuns() {
  const fast = await serve(['-e', stubSource], benchEnv({ STUB_LATENCY_MS: '0' }));
  useProfile(fast.ready.url);
  const at = {};
  for (const count of [100_000, 1_000_000]) {
    const file = join(work, `scale-${count}.ndjson`);
    await writeRecords(file, count);
    const journal = join(work, `scale-${count}.journal.ndjson`);
    at[count] = {
      dry: await measured(['create', 'single', '--file', file, '--dry-run', '--quiet']),
      real: await measured(bulkArgs(file, 32, journal)),
      resume: await measured(bulkArgs(file, 32, journal)),
    };
    rmSync(file);
  }
  await stop(fast.child);
  for (const [phase, name] of [
    ['dry', 'dry run'],
    ['real', 'real run against a stub'],
    ['resume', 'resume of its journal'],
  ]) {
    const small = at[100_000][phase];
    const large = at[1_000_000][phase];
    report(
      `1,000,000 records, ${name}: peak RSS`,
      `${large.mib.toFixed(0)} MiB`,
      `<= ${memoryGoalMiB} MiB`,
      large.mib <= memoryGoalMiB,
      `${fmt(large.ms)}; at 100,000: ${small.mib.toFixed(0)} MiB, ${fmt(small.ms)}`,
    );
    const perRecord = large.ms / 1_000_000 / (small.ms / 100_000);
    report(
      `  time per record / that at 100,000`,
      `${perRecord.toFixed(2)}x`,
      '<= 1.3',
      perRecord <= 1.3,
      `${((large.ms * 1000) / 1_000_000).toFixed(1)} µs against ${((small.ms * 1000) / 100_000).toFixed(1)} µs`,
    );
  }
}

/** A journal of `count` invoices the service created, as a bulk run writes it, for `invoices import`. */
async function writeCreatedJournal(path, count) {
  const out = createWriteStream(path);
  const at = '2026-11-01T08:00:00.000Z';
  const write = async (entry) => {
    if (!out.write(`${JSON.stringify(entry)}\n`)) await once(out, 'drain');
  };
  await write({
    type: 'run',
    version: 1,
    at,
    resolveDatesAt: at,
    kind: 'single',
    input: 'ledger.ndjson',
    environment: 'bench',
    service: 'https://bench.example.com/',
  });
  for (let index = 1; index <= count; index++) {
    const body = benchRecord(index);
    await write({
      type: 'planned',
      key: `k${index}`,
      record: index,
      line: index,
      businessReference: body.businessReference,
      body,
    });
    await write({ type: 'sent', key: `k${index}`, at });
    await write({ type: 'created', key: `k${index}`, invoiceNumber: String(1_000_000 + index) });
  }
  out.end();
  await once(out, 'finish');
}

/** A home in `folder` whose ledger of the `bench` environment holds `count` invoices, imported from a journal. */
async function importedLedger(folder, count) {
  mkdirSync(folder, { recursive: true });
  const env = benchEnv({
    HOME: folder,
    XDG_STATE_HOME: join(folder, 'state'),
    EINVOICE_ENV: 'bench',
    EINVOICE_BASE_URL: 'https://bench.example.com',
    EINVOICE_TOKEN: token,
  });
  const journal = join(folder, 'journal.ndjson');
  await writeCreatedJournal(journal, count);
  const imported = await measured(['invoices', 'import', journal], env, { cwd: folder });
  if (imported.code !== 0) throw new Error(`invoices import failed: ${imported.stderr}`);
  rmSync(journal, { force: true });
  return { env, folder, import: imported, count };
}

/** The ledger: a lookup on a million entries against a hundred, an export of the million, a bulk run with it on. */
async function ledgerBench() {
  const ledgers = {};
  for (const [name, count] of [
    ['small', 100],
    ['medium', 100_000],
    ['large', 1_000_000],
  ]) {
    ledgers[name] = await importedLedger(join(work, `ledger-${name}`), count);
  }
  const { medium, large } = ledgers;
  report(
    'invoices import of 1,000,000 entries: peak RSS',
    `${large.import.mib.toFixed(0)} MiB`,
    '<= 256 MiB',
    large.import.mib <= 256,
    `${fmt(large.import.ms)}; at 100,000: ${medium.import.mib.toFixed(0)} MiB, ${fmt(medium.import.ms)}`,
  );
  const perEntry = (ledger) => (ledger.import.ms * 1000) / ledger.count;
  const importRatio = perEntry(large) / perEntry(medium);
  report(
    '  time per entry / that at 100,000',
    `${importRatio.toFixed(2)}x`,
    '<= 1.3',
    importRatio <= 1.3,
    `${perEntry(large).toFixed(1)} µs against ${perEntry(medium).toFixed(1)} µs`,
  );
  rmSync(medium.folder, { recursive: true, force: true });
  const lookups = { small: [], large: [] };
  for (let run = 0; run < startupRuns; run++) {
    for (const name of ['small', 'large']) {
      const reference = name === 'small' ? 'BENCH-50' : 'BENCH-500000';
      const result = await timed(
        process.execPath,
        [bin, 'invoices', 'list', '--ref', reference, '--json'],
        ledgers[name],
      );
      if (JSON.parse(result.stdout).length !== 1) throw new Error(`invoices list --ref ${reference} found no invoice`);
      lookups[name].push(result.ms);
    }
  }
  const lookupRatio = median(lookups.large) / median(lookups.small);
  report(
    'invoices list --ref X: 1,000,000 entries / 100',
    `${lookupRatio.toFixed(2)}x`,
    '<= 1.5',
    lookupRatio <= 1.5,
    `${startupRuns} runs each: ${fmt(median(lookups.large))} / ${fmt(median(lookups.small))}`,
  );
  const exported = await measured(
    ['invoices', 'export', '--format', 'csv', '--output', join(work, 'ledger.csv')],
    large.env,
  );
  rmSync(join(work, 'ledger.csv'), { force: true });
  report(
    'invoices export of 1,000,000 entries: peak RSS',
    `${exported.mib.toFixed(0)} MiB`,
    '<= 256 MiB',
    exported.mib <= 256,
    `${fmt(exported.ms)}`,
  );
  rmSync(large.folder, { recursive: true, force: true });

  // A bulk create with the ledger on (the default) against the plain got loop sending the same bodies.
  const records = 5_000;
  const file = join(work, 'ledger-bulk.ndjson');
  await writeRecords(file, records);
  const slow = await serve(['-e', stubSource], benchEnv({ STUB_LATENCY_MS: '20' }));
  useProfile(slow.ready.url);
  const on = [];
  const off = [];
  const loop = [];
  for (let run = 0; run < bulkRuns; run++) {
    on.push(await cpuTimed(process.execPath, [bin, ...bulkArgs(file, 32)]));
    off.push(await cpuTimed(process.execPath, [bin, ...bulkArgs(file, 32), '--no-ledger']));
    loop.push(await cpuTimed(process.execPath, ['-e', gotLoopSource, file, slow.ready.url, '32', token]));
  }
  await stop(slow.child);
  const cpu = {
    on: median(on.map((run) => run.cpuMs)),
    off: median(off.map((run) => run.cpuMs)),
    loop: median(loop.map((run) => run.cpuMs)),
  };
  const ratio = cpu.on / cpu.loop;
  report(
    `bulk ${records.toLocaleString('en-US')} creates @ 20 ms, c=32, ledger on: CPU CLI / got loop`,
    `${ratio.toFixed(2)}x`,
    '<= 1.25',
    ratio <= 1.25,
    `${bulkRuns} runs each: CLI ${fmt(cpu.on)} (${((cpu.on * 1000) / records).toFixed(0)} µs a record; ledger off ` +
      `${fmt(cpu.off)}), got loop ${fmt(cpu.loop)}`,
  );
}

/**
 * The orders of a shop for the ledger `writeCreatedJournal` makes: BENCH-1 to BENCH-count at the invoices' amounts, but
 * every 97th an amount 1.00 off, every 1,000th a new order no invoice has, and every 5,000th twice.
 */
async function writeOrders(path, count) {
  const out = createWriteStream(path);
  const write = async (line) => {
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  };
  await write('businessReference,amount');
  for (let index = 1; index <= count; index++) {
    const amount = 100 + (index % 900) + (index % 97 === 0 ? 1 : 0);
    const line = index % 1000 === 0 ? `NEW-${index},${amount}.00` : `BENCH-${index},${amount}.00`;
    await write(line);
    if (index % 5000 === 1) await write(line);
  }
  out.end();
  await once(out, 'finish');
}

/** `invoices reconcile` of 100,000 and of 1,000,000 orders, each against a ledger of as many invoices. */
async function reconcileRuns() {
  const at = {};
  for (const count of [100_000, 1_000_000]) {
    const { folder, env, import: imported } = await importedLedger(join(work, `reconcile-${count}`), count);
    const orders = join(folder, 'orders.csv');
    await writeOrders(orders, count);
    const args = ['invoices', 'reconcile', orders, '--report', join(folder, 'reconciliation.csv')];
    at[count] = { ...(await measured(args, env, { cwd: folder })), importMs: imported.ms };
    rmSync(folder, { recursive: true, force: true });
  }
  const small = at[100_000];
  const large = at[1_000_000];
  report(
    'reconcile 1,000,000 orders / 1,000,000 invoices: peak RSS',
    `${large.mib.toFixed(0)} MiB`,
    `<= ${memoryGoalMiB} MiB`,
    large.mib <= memoryGoalMiB,
    `${fmt(large.ms)}; at 100,000: ${small.mib.toFixed(0)} MiB, ${fmt(small.ms)}; import of the million ${fmt(large.importMs)}`,
  );
  const perOrder = large.ms / 1_000_000 / (small.ms / 100_000);
  report(
    '  time per order / that at 100,000',
    `${perOrder.toFixed(2)}x`,
    '<= 1.3',
    perOrder <= 1.3,
    `${((large.ms * 1000) / 1_000_000).toFixed(1)} µs against ${((small.ms * 1000) / 100_000).toFixed(1)} µs`,
  );
}

/** The CPU time the machine's cores have spent busy and in all, in clock ticks, from /proc/stat. */
function machineTicks() {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal: idle and iowait are the idle ones.
  const total = fields.slice(0, 8).reduce((sum, ticks) => sum + ticks, 0);
  return { busy: total - fields[3] - fields[4], total };
}

/**
 * Writes `count` rows of invoices as an .xlsx workbook, as Excel writes one (texts in a shared table, dates as date
 * cells), with the library einvoice reads it with, streamed.
 */
async function writeWorkbook(path, count) {
  const { WorkbookWriter } = await import('@cj-tech-master/excelts');
  const workbook = new WorkbookWriter({ filename: path, useSharedStrings: true, useStyles: true });
  const sheet = workbook.addWorksheet('Invoices');
  const headers = [
    'customer.name',
    'customer.email',
    'customer.mobile',
    'amount',
    'sendingDate',
    'releaseDate',
    'expiryDate',
    'businessReference',
    'note',
    'communicationMethod',
    'paymentType',
    'items',
  ];
  sheet.addRow(headers).commit();
  const day = (date) => new Date(`${date}T00:00:00.000Z`);
  for (let index = 1; index <= count; index++) {
    const amount = 100 + (index % 900);
    const row = sheet.addRow([
      `عميل ${index % 1000}`,
      `c${index}@example.com`,
      '01001234567',
      amount,
      day('2030-01-01'),
      day('2030-01-01'),
      day('2030-02-01'),
      `BENCH-${index}`,
      `Order ${index}`,
      'SMS',
      'PUSH_TO_CUSTOMER',
      `code=SKU-1,qty=2,price=${amount / 2},en=Shirt,ar=قميص`,
    ]);
    for (const column of [5, 6, 7]) row.getCell(column).numFmt = 'yyyy-mm-dd';
    row.commit();
    // The writer is synchronous until its stream pushes back: let it drain.
    if (index % 10_000 === 0) await setImmediate();
  }
  sheet.commit();
  await workbook.commit();
}

/** A workbook of a million rows checked with --dry-run, against the same at 100,000. */
async function excelRuns() {
  const at = {};
  for (const count of [100_000, 1_000_000]) {
    const file = join(work, `scale-${count}.xlsx`);
    await writeWorkbook(file, count);
    at[count] = await measured(['create', 'single', '--file', file, '--dry-run', '--quiet']);
    rmSync(file);
  }
  const small = at[100_000];
  const large = at[1_000_000];
  report(
    '1,000,000-row workbook, dry run: peak RSS',
    `${large.mib.toFixed(0)} MiB`,
    `<= ${memoryGoalMiB} MiB`,
    large.mib <= memoryGoalMiB,
    `${fmt(large.ms)}; at 100,000: ${small.mib.toFixed(0)} MiB, ${fmt(small.ms)}`,
  );
  const perRow = large.ms / 1_000_000 / (small.ms / 100_000);
  report(
    `  time per row / that at 100,000`,
    `${perRow.toFixed(2)}x`,
    '<= 1.3',
    perRow <= 1.3,
    `${((large.ms * 1000) / 1_000_000).toFixed(1)} µs against ${((small.ms * 1000) / 100_000).toFixed(1)} µs`,
  );
}

/**
 * Writes a workbook whose worksheet unpacks to the `bytes` that `chunks` yields while its zip directory declares 10 KiB,
 * as a crafted zip bomb does: the worksheet streamed through deflate, so the bench never holds it whole.
 */
async function writeLyingWorkbook(path, chunks) {
  const { createDeflateRaw, crc32 } = await import('node:zlib');
  const small = {
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
    '_rels/.rels':
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    'xl/workbook.xml':
      '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' +
      'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>',
    'xl/_rels/workbook.xml.rels':
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
  };
  const out = createWriteStream(path);
  const write = (bytes) => (out.write(bytes) ? undefined : once(out, 'drain'));
  const directory = [];
  let offset = 0;
  const addPart = async (name, produce, declared) => {
    const header = Buffer.alloc(30 + Buffer.byteLength(name));
    const nameBytes = Buffer.from(name);
    const deflate = createDeflateRaw();
    const packedChunks = [];
    let packed = 0;
    let crc = 0;
    let size = 0;
    const collected = (async () => {
      for await (const chunk of deflate) {
        packedChunks.push(chunk);
        packed += chunk.length;
        // Spilled as it comes, so a part of gigabytes is never held: the local header is written first, with sizes
        // in a data descriptor after the data (bit 3).
        if (packedChunks.length > 64) await flush();
      }
    })();
    let headerWritten = false;
    const flush = async () => {
      if (!headerWritten) {
        header.writeUInt32LE(0x04034b50, 0);
        header.writeUInt16LE(20, 4);
        header.writeUInt16LE(0x0008, 6);
        header.writeUInt16LE(8, 8);
        header.writeUInt16LE(nameBytes.length, 26);
        nameBytes.copy(header, 30);
        await write(header);
        headerWritten = true;
      }
      for (const chunk of packedChunks.splice(0)) await write(chunk);
    };
    for await (const chunk of produce()) {
      crc = crc32(chunk, crc);
      size += chunk.length;
      if (!deflate.write(chunk)) await once(deflate, 'drain');
    }
    deflate.end();
    await collected;
    await flush();
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    descriptor.writeUInt32LE(packed, 8);
    descriptor.writeUInt32LE(size % 2 ** 32, 12);
    await write(descriptor);
    directory.push({ nameBytes, crc: crc >>> 0, packed, unpacked: declared ?? size, offset });
    offset += header.length + packed + descriptor.length;
  };
  for (const [name, text] of Object.entries(small)) {
    await addPart(name, function* () {
      yield Buffer.from(text);
    });
  }
  await addPart('xl/worksheets/sheet1.xml', chunks, 10 * 1024);
  const start = offset;
  for (const entry of directory) {
    const central = Buffer.alloc(46 + entry.nameBytes.length);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0008, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(entry.crc, 16);
    central.writeUInt32LE(entry.packed, 20);
    central.writeUInt32LE(entry.unpacked, 24);
    central.writeUInt16LE(entry.nameBytes.length, 28);
    central.writeUInt32LE(entry.offset, 42);
    entry.nameBytes.copy(central, 46);
    await write(central);
    offset += central.length;
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(directory.length, 8);
  end.writeUInt16LE(directory.length, 10);
  end.writeUInt32LE(offset - start, 12);
  end.writeUInt32LE(start, 16);
  await write(end);
  out.end();
  await once(out, 'finish');
}

/** Workbooks whose zip directory understates their worksheet: each refused (exit 2) within the memory goal. */
async function hostileRuns() {
  const head =
    '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
  const cases = {
    '600 MB of rows': function* () {
      yield Buffer.from(head + '<row r="1"><c r="A1" t="inlineStr"><is><t>customer.name</t></is></c></row>');
      const rows = Buffer.from('<row><c t="inlineStr"><is><t>Amr Hassan</t></is></c></row>'.repeat(10_000));
      for (let written = 0; written < 600 * 1e6; written += rows.length) yield rows;
      yield Buffer.from('</sheetData></worksheet>');
    },
    '1.5 GB of one cell': function* () {
      yield Buffer.from(head + '<row r="1"><c r="A1" t="inlineStr"><is><t>');
      const text = Buffer.alloc(1024 ** 2, 'x');
      for (let written = 0; written < 1.5 * 1e9; written += text.length) yield text;
      yield Buffer.from('</t></is></c></row></sheetData></worksheet>');
    },
  };
  for (const [name, chunks] of Object.entries(cases)) {
    const file = join(work, 'lying.xlsx');
    await writeLyingWorkbook(file, chunks);
    const packed = statSync(file).size;
    const run = await measured(['create', 'single', '--file', file, '--dry-run'], benchEnv(), { allowFailure: true });
    rmSync(file);
    const refused = run.code === 2 && run.stderr.includes('zip directory declares');
    report(
      `workbook declaring 10 KiB, unpacking to ${name}: peak RSS`,
      `${run.mib.toFixed(0)} MiB`,
      `<= ${memoryGoalMiB} MiB, exit 2`,
      refused && run.mib <= memoryGoalMiB,
      `${(packed / 1024 ** 2).toFixed(1)} MB file; exit ${run.code} in ${fmt(run.ms)}`,
    );
  }
}

async function main() {
  const ticksBefore = machineTicks();
  console.log(
    `einvoice bench${pageSection === 'goals' ? '' : ` --${pageSection}`}: node ${process.version}, ${cpus().length} CPUs; medians of repeated runs\n`,
  );
  if (scale) {
    await scaleRuns();
    await excelRuns();
  } else if (excelOnly) await excelRuns();
  else if (hostileOnly) await hostileRuns();
  else if (reconcileOnly) await reconcileRuns();
  else if (sandboxOnly) await sandboxBench();
  else if (ledgerOnly) await ledgerBench();
  else if (bulkOnly) await bulk();
  else {
    await startup();
    await bulk();
    await sandboxBench();
  }
  const missed = rows.filter((row) => !row.ok).length;
  const ticksAfter = machineTicks();
  // The bench's own processes included: on a machine shared with other work, more than one core's worth means the
  // runs waited for CPU, and wall-clock figures suffer first.
  const busy = (ticksAfter.busy - ticksBefore.busy) / (ticksAfter.total - ticksBefore.total);
  const machine = `the machine's ${cpus().length} CPUs were ${(busy * 100).toFixed(0)}% busy during the runs, the bench included`;
  console.log(
    `\n${rows.length - missed} of ${rows.length} goals met${quick ? ' (BENCH_QUICK=1: fewer runs)' : ''}; ${machine}.`,
  );
  return { node: process.version, rows, machine };
}

/** The path of Node 22's binary, installed from the npm registry into npm's cache by npx. */
function node22Path() {
  return execFileSync('npx', ['--yes', '--package', node22, '--', 'node', '-p', 'process.execPath'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
}

/** The same bench on Node 22, in a process of its own; resolves with its figures. */
async function benchOnNode22() {
  const figures = join(work, 'node22.json');
  const args = [fileURLToPath(import.meta.url), '--here', ...process.argv.slice(2).filter((arg) => arg !== '--here')];
  const child = spawn(node22Path(), args, { stdio: 'inherit', env: { ...process.env, BENCH_FIGURES: figures } });
  const [code] = await once(child, 'close');
  if (code !== 0) throw new Error(`the Node 22 bench exited ${code}`);
  return JSON.parse(readFileSync(figures, 'utf8'));
}

/** docs/performance.md: the figures of this run, each beside its goal, per Node.js version. */
function writePerformancePage(runs) {
  const page = join(root, 'docs', 'performance.md');
  const only = sandboxOnly ? '--sandbox' : bulkOnly ? '--bulk' : undefined;
  const kept = existsSync(page) ? readFileSync(page, 'utf8') : '';
  const section = (title) => {
    const start = kept.indexOf(`<!-- ${title} -->`);
    const end = kept.indexOf(`<!-- /${title} -->`);
    return start === -1 || end === -1 ? '' : kept.slice(start, end + `<!-- /${title} -->`.length);
  };
  const table = (run) =>
    [
      `On Node.js ${run.node} (${run.machine}):`,
      '',
      '| figure | measured | goal | met | detail |',
      '| --- | --- | --- | --- | --- |',
      ...run.rows.map(
        (row) => `| ${row.name.trim()} | ${row.value} | ${row.goal} | ${row.ok ? 'yes' : 'no'} | ${row.detail} |`,
      ),
    ].join('\n');
  const flag = {
    scale: ' -- --scale',
    excel: ' -- --excel',
    ledger: ' -- --ledger',
    hostile: ' -- --hostile',
    reconcile: ' -- --reconcile',
    goals: '',
  }[pageSection];
  const measuredNow = [
    `<!-- ${pageSection} -->`,
    `Measured by \`npm run bench${flag}\` on ${new Date().toISOString().slice(0, 10)}, ${cpus().length} CPUs${quick ? ' (BENCH_QUICK=1: fewer runs)' : ''}${only ? ` (${only}: only these figures)` : ''}.`,
    '',
    runs.map(table).join('\n\n'),
    `<!-- /${pageSection} -->`,
  ].join('\n');
  // `history` and `catch-up` are measured by hand (a build, or a ledger, before the change against this one), and
  // kept as they are.
  const parts = ['goals', 'ledger', 'scale', 'excel', 'hostile', 'reconcile', 'history', 'catch-up'].map((name) =>
    name === pageSection ? measuredNow : section(name),
  );
  writeFileSync(
    page,
    [
      '# Performance',
      '',
      "What a merchant would notice, measured on this repository's own machine by `npm run bench` (start-up, bulk",
      'sending, the built-in sandbox), `npm run bench -- --ledger` (the ledger of what was sent), `npm run bench --',
      '--scale` (a million records), `npm run bench -- --excel` (a workbook of a million rows, also part of --scale),',
      '`npm run bench -- --hostile` (workbooks whose zip directory lies about their size) and `npm run bench --',
      '--reconcile` (a million orders reconciled against a ledger of a million invoices), which write this page.',
      'Each figure is a ratio of two runs taken together, so it does not depend on how fast the machine is.',
      '',
      ...parts.filter(Boolean).flatMap((part) => [part, '']),
    ].join('\n'),
  );
}

const onlyNode22 = flag === '--node' && value === '22';
(async () => {
  if (flag === '--here') {
    const run = await main();
    if (process.env.BENCH_FIGURES) writeFileSync(process.env.BENCH_FIGURES, JSON.stringify(run));
    return;
  }
  const runs = onlyNode22 ? [] : [await main()];
  console.log('');
  runs.push(await benchOnNode22());
  writePerformancePage(runs);
})()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => rmSync(work, { recursive: true, force: true }));
