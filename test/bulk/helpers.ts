import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { binPath } from '../helpers/cli.js';
import { newToken } from '../helpers/safe-cli.js';
import { sandboxApi } from '../helpers/sandbox.js';

// Helpers of the bulk tests: invoice records, files, chunked streams, and a sandbox served by another process.

/** A temporary folder. */
export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'einvoice-bulk-test-'));
}

/** A valid single invoice record as a merchant writes it in a file. */
export function record(index: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    customer: { name: `Customer ${index}`, mobile: '+201001234567' },
    amount: 100 + index,
    sendingDate: '2030-01-01',
    releaseDate: '2030-01-01',
    expiryDate: '2030-02-01',
    note: `Order ${index}`,
    ...overrides,
  };
}

/** `count` records; every `withoutReferenceEvery`-th has no businessReference (0: all have one). */
export function records(count: number, withoutReferenceEvery = 0): Array<Record<string, unknown>> {
  return Array.from({ length: count }, (_, position) => {
    const index = position + 1;
    const plain = withoutReferenceEvery > 0 && index % withoutReferenceEvery === 0;
    return record(index, plain ? {} : { businessReference: `REF-${index}` });
  });
}

/** Writes records as NDJSON and returns the path. */
export function writeNdjson(dir: string, name: string, values: unknown[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${values.map((value) => JSON.stringify(value)).join('\n')}\n`);
  return path;
}

/** The text as a stream of chunks of `size` bytes (cutting through lines and characters). */
export function chunked(text: string, size: number): AsyncIterable<Buffer> {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += size) chunks.push(bytes.subarray(start, start + size));
  return Readable.from(chunks);
}

/** Every item of an async iterable of batches. */
export async function collect<T>(batches: AsyncIterable<T[]>): Promise<T[]> {
  const items: T[] = [];
  for await (const batch of batches) items.push(...batch);
  return items;
}

/** The entries of a journal file (complete lines only). */
export function journalEntries(path: string): Array<Record<string, unknown>> {
  if (!existsSync(path)) return [];
  const text = readFileSync(path, 'utf8');
  return text
    .split('\n')
    .slice(0, text.endsWith('\n') ? undefined : -1)
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Waits until `condition` holds, checking every few milliseconds (a condition, not a guess of how long). */
export async function until(condition: () => boolean | Promise<boolean>, what: string, limitMs = 60_000) {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > limitMs) throw new Error(`Gave up waiting for ${what}`);
    await sleep(10);
  }
}

/** A sandbox served by `einvoice sandbox serve` in its own process, with fault injection flags. */
export async function serveSandbox(flags: string[] = []) {
  const token = newToken('bulk-sbx');
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [binPath, 'sandbox', 'serve', '--port', '0', '--json', '--token', token, ...flags],
    { env: { PATH: process.env.PATH ?? '', HOME: tempDir(), CI: 'true' }, stdio: 'pipe' },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const newline = out.indexOf('\n');
      if (newline !== -1) resolve((JSON.parse(out.slice(0, newline)) as { url: string }).url);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.on('exit', (code) => reject(new Error(`sandbox serve exited ${code}: ${err}`)));
  });
  const api = sandboxApi(url, token);
  return {
    url,
    token,
    api,
    /** Changes the fault settings of the running sandbox. */
    async setFaults(settings: Record<string, unknown>) {
      const response = await fetch(`${url}/__sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(settings),
      });
      if (!response.ok) throw new Error(`POST /__sandbox/faults answered ${response.status}`);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export type ServedSandbox = Awaited<ReturnType<typeof serveSandbox>>;

/** How many invoices the sandbox holds per note ("Order 17" -> 1). */
export async function invoicesByNote(sandbox: ServedSandbox): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const invoice of await sandbox.api.invoices()) {
    const note = (invoice.request as { note: string }).note;
    counts.set(note, (counts.get(note) ?? 0) + 1);
  }
  return counts;
}

/** The CLI started in `home` without waiting for it: its process, its output so far, and its end. */
export function startCli(args: string[], home: string) {
  const child = spawn(process.execPath, [binPath, ...args], {
    cwd: home,
    env: { PATH: process.env.PATH ?? '', HOME: home, CI: 'true' },
    stdio: 'pipe',
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk));
  child.stdin.end();
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, output, ended };
}

/** How many journal entries of `type` the file holds. */
export function countEntries(path: string, type: string): number {
  return journalEntries(path).filter((entry) => entry.type === type).length;
}
