import fs, { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { sandboxApi } from '../helpers/sandbox.js';
import { runSpawned } from '../helpers/spawned.js';
import { newToken } from '../helpers/secrets.js';

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
  const serving = runSpawned(['sandbox', 'serve', '--port', '0', '--json', '--token', token, ...flags], {
    home: tempDir(),
    printsToken: true,
  });
  await serving.waitFor('stdout', '\n');
  const url = (JSON.parse(serving.output.stdout.slice(0, serving.output.stdout.indexOf('\n'))) as { url: string }).url;
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
    async stop() {
      serving.child.kill('SIGTERM');
      await serving;
    },
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

/** How many journal entries of `type` the file holds. */
export function countEntries(path: string, type: string): number {
  return journalEntries(path).filter((entry) => entry.type === type).length;
}

export type WriteSync = (fd: number, buffer: Buffer, offset: number) => number;
export type FdatasyncSync = (fd: number) => void;

/** Runs `body` with the platform's writeSync and fdatasyncSync replaced by wrappers of them, then restores them. */
export async function withFileCalls(
  wrap: { writeSync?: (write: WriteSync) => WriteSync; fdatasyncSync?: (sync: FdatasyncSync) => FdatasyncSync },
  body: () => Promise<void>,
): Promise<void> {
  const { writeSync, fdatasyncSync } = fs;
  if (wrap.writeSync) fs.writeSync = wrap.writeSync(writeSync as WriteSync) as typeof fs.writeSync;
  if (wrap.fdatasyncSync) fs.fdatasyncSync = wrap.fdatasyncSync(fdatasyncSync);
  // The journal imports them by name: its bindings follow the module's.
  syncBuiltinESMExports();
  try {
    await body();
  } finally {
    Object.assign(fs, { writeSync, fdatasyncSync });
    syncBuiltinESMExports();
  }
}
