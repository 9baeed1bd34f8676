import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalFileError } from '../../src/errors.js';
import { openLocalDatabase } from '../../src/local-database.js';
import { schemaVersion } from '../../src/sandbox/database.js';
import { tempHome } from '../helpers/home.js';
import { runInProcess } from '../helpers/in-process.js';

// A sandbox state file that cannot be used ends with exit 10, the file named, what is wrong and what to do; the file
// keeps every byte it had, and one of a newer einvoice is not even switched to a write-ahead log.

const pageSize = 4096;

/** A home whose built-in sandbox state file exists, made by a command as a merchant's would be. */
async function homeWithState(): Promise<{ home: string; file: string }> {
  const home = tempHome();
  const made = await runInProcess(['stats'], { home });
  expect(made.code, made.stderr).toBe(0);
  return { home, file: join(home, '.local', 'state', 'einvoice', 'sandbox.sqlite') };
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** Runs `stats` on the built-in sandbox, and checks that `file` is unchanged and the run says what to do. */
async function refused(args: string[], home: string, file: string, env: Record<string, string> = {}) {
  const before = sha256(file);
  const result = await runInProcess(args, { home, env });
  expect(sha256(file), 'the file is left as it was').toBe(before);
  expect(result.code, result.stderr).toBe(10);
  expect(result.stdout).toBe('');
  expect(result.stderr).not.toMatch(/Unexpected error|report it|service|unavailable/i);
  return result.stderr;
}

describe('a built-in sandbox state file that cannot be used (exit 10, left as it was)', () => {
  it('refuses a file that is not a database, naming the variable that points at it', async () => {
    const home = tempHome();
    const file = join(home, 'notes.txt');
    writeFileSync(file, 'Call Amr about the March invoices\n');
    const stderr = await refused(['stats'], home, file, { EINVOICE_SANDBOX_STATE: file });
    expect(stderr).toContain(
      `The sandbox's state file ${file} is not a database einvoice made: it is not a SQLite file.`,
    );
    expect(stderr).toContain('einvoice did not make it and leaves it as it is');
    expect(stderr).toContain('EINVOICE_SANDBOX_STATE names this file: set it to another file, or unset it');
    expect(stderr).not.toContain('sandbox reset');
  });

  it("refuses another program's SQLite database", async () => {
    const home = tempHome();
    const file = join(home, 'other.db');
    const other = new DatabaseSync(file);
    other.exec('CREATE TABLE notes (text); PRAGMA application_id = 1234');
    other.close();
    const stderr = await refused(['stats'], home, file, { EINVOICE_SANDBOX_STATE: file });
    expect(stderr).toContain(`${file} is not a database einvoice made: it is the SQLite database of another program.`);
  });

  it('opens a file another process is checkpointing: its header counts pages its log still holds', async () => {
    const { home, file } = await homeWithState();
    // Another process writes, keeping its pages in the write-ahead log until a checkpoint.
    const other = new DatabaseSync(file);
    other.exec('PRAGMA wal_autocheckpoint = 0; CREATE TABLE filler (x); INSERT INTO filler VALUES (randomblob(60000))');
    const pages = Number((other.prepare('PRAGMA page_count').get() as { page_count: number }).page_count);
    try {
      // The checkpoint has written the first page, with the new count, and not yet the pages it adds after it.
      const bytes = readFileSync(file);
      expect(bytes.length).toBeLessThan(pages * pageSize);
      bytes.writeUInt32BE(pages, 28);
      bytes.copy(bytes, 92, 24, 28);
      writeFileSync(file, bytes);
      const result = await runInProcess(['stats'], { home });
      expect(result.code, result.stderr).toBe(0);
    } finally {
      other.close();
    }
  });

  it('refuses a file cut short, and says that sandbox reset moves it aside', async () => {
    const { home, file } = await homeWithState();
    writeFileSync(file, readFileSync(file).subarray(0, 3 * pageSize));
    const stderr = await refused(['stats'], home, file);
    expect(stderr).toMatch(
      new RegExp(
        `The sandbox's state file ${file} is damaged: it is cut short \\(12288 bytes of the \\d+ its header counts\\)\\.`,
      ),
    );
    expect(stderr).toContain('Move it away (with any -wal and -shm file beside it) to start a new one');
    expect(stderr).toContain('Or run einvoice sandbox reset: it moves the damaged file aside, keeping it');
    expect(stderr).toContain('Or set EINVOICE_SANDBOX_STATE to another file');
  });

  it('refuses a file whose header is corrupted', async () => {
    const { home, file } = await homeWithState();
    const bytes = readFileSync(file);
    bytes.writeUInt16BE(3000, 16);
    writeFileSync(file, bytes);
    const stderr = await refused(['stats'], home, file);
    expect(stderr).toContain(`The sandbox's state file ${file} is damaged: its header is corrupted.`);
  });

  it('names a corrupted page as such, not as the service failing', async () => {
    const { home, file } = await homeWithState();
    const bytes = readFileSync(file);
    const page = 3;
    bytes.fill(0xa5, (page - 1) * pageSize, page * pageSize);
    writeFileSync(file, bytes);
    const stderr = await refused(['stats'], home, file);
    expect(stderr).toContain(`The sandbox's state file ${file} is damaged: a page of its database is corrupted (`);
    expect(stderr).toContain(`page ${page}`);
    expect(stderr).toContain('einvoice sandbox reset');
    expect(readdirSync(join(file, '..')), 'no -wal or -shm file made').toEqual(['sandbox.sqlite']);
  });

  it('refuses a file of a newer einvoice before anything writes to it: no write-ahead log is started', async () => {
    const { home, file } = await homeWithState();
    const newer = new DatabaseSync(file);
    newer.exec(`PRAGMA journal_mode = DELETE; PRAGMA user_version = ${schemaVersion + 1}`);
    newer.close();
    const header = () => [...readFileSync(file).subarray(18, 20)];
    expect(header(), 'a file in rollback mode').toEqual([1, 1]);
    for (const args of [['stats'], ['sandbox', 'reset'], ['sandbox', 'export']]) {
      const stderr = await refused(args, home, file);
      expect(stderr).toContain(
        `The sandbox's state file ${file} was written by a newer einvoice (version ${schemaVersion + 1}; this einvoice keeps version ${schemaVersion}).`,
      );
      expect(stderr).toContain('use it with the newer einvoice, or give this one another file');
      expect(header(), args.join(' ')).toEqual([1, 1]);
      expect(readdirSync(join(file, '..')), args.join(' ')).toEqual(['sandbox.sqlite']);
    }
  });

  it('refuses a folder, or a path below a file, as the state file EINVOICE_SANDBOX_STATE names', async () => {
    const home = tempHome();
    const folder = join(home, 'states');
    mkdirSync(folder);
    const asFolder = await runInProcess(['stats'], { home, env: { EINVOICE_SANDBOX_STATE: folder } });
    expect(asFolder.code).toBe(10);
    expect(asFolder.stderr).toContain(`The sandbox's state file ${folder} is a folder, not a file.`);
    expect(asFolder.stderr).toContain('EINVOICE_SANDBOX_STATE names this file');
    writeFileSync(join(home, 'notes.txt'), 'notes\n');
    const below = join(home, 'notes.txt', 'sandbox.sqlite');
    const belowFile = await runInProcess(['stats'], { home, env: { EINVOICE_SANDBOX_STATE: below } });
    expect(belowFile.code).toBe(10);
    expect(belowFile.stderr).toContain(`${below} cannot be made: a file stands where a folder would.`);
    expect(readFileSync(join(home, 'notes.txt'), 'utf8')).toBe('notes\n');
    // Under /proc no folder can be made, and Node's recursive mkdir tries for ever: the state file is refused.
    const underProc = '/proc/einvoice-state/sandbox.sqlite';
    const unmakeable = await runInProcess(['stats'], { home, env: { EINVOICE_SANDBOX_STATE: underProc } });
    expect(unmakeable.code).toBe(10);
    expect(unmakeable.stderr).toContain(`${underProc} cannot be made: its folder /proc/einvoice-state cannot be made`);
  });
});

describe('a state file on a read-only disk', () => {
  const mounted: string[] = [];
  afterEach(() => {
    for (const dir of mounted.splice(0)) execFileSync('umount', [dir]);
  });

  it('is refused as read-only (exit 10), naming what to make writable', async () => {
    const { file: made } = await homeWithState();
    // A real read-only file system (the tests run as root, whom a file's mode does not stop).
    const disk = mkdtempSync(join(tmpdir(), 'einvoice-read-only-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,mode=0700', 'tmpfs', disk]);
    mounted.push(disk);
    const file = join(disk, 'sandbox.sqlite');
    copyFileSync(made, file);
    execFileSync('mount', ['-o', 'remount,ro', disk]);
    const stderr = await refused(['stats'], tempHome(), file, { EINVOICE_SANDBOX_STATE: file });
    expect(stderr).toContain(`The sandbox's state file ${file} cannot be written: the file is read-only (EROFS).`);
    expect(stderr).toContain('make the file and its folder writable for you, or give einvoice another file');
    expect(readdirSync(disk)).toEqual(['sandbox.sqlite']);
  });
});

describe('einvoice sandbox reset on a damaged state file', () => {
  it('moves it aside, every byte kept, and starts a new sandbox', async () => {
    const { home, file } = await homeWithState();
    writeFileSync(file, readFileSync(file).subarray(0, 3 * pageSize));
    const damaged = sha256(file);
    const reset = await runInProcess(['sandbox', 'reset'], { home });
    expect(reset.code, reset.stderr).toBe(0);
    const kept = /The damaged state file is kept as (\S+)\.\n/.exec(reset.stderr)?.[1] ?? '';
    expect(kept).toMatch(new RegExp(`^${file}\\.damaged-`));
    expect(sha256(kept)).toBe(damaged);
    const stats = await runInProcess(['stats', '--json'], { home });
    expect(stats.code, stats.stderr).toBe(0);
    expect(existsSync(file)).toBe(true);
  });
});

describe('a file held by another process', () => {
  it('is refused as locked once the wait is over, naming it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'einvoice-db-')), 'held.sqlite');
    const options = { description: 'The test file', application: 7, version: 1, migrate: () => {}, busyTimeoutMs: 50 };
    (await openLocalDatabase(file, options)).close();
    const holder = new DatabaseSync(file);
    // A write-ahead log lets readers in while another process writes: held in exclusive locking mode, none gets in.
    holder.exec('PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE');
    try {
      const refusal = await openLocalDatabase(file, options).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(LocalFileError);
      expect((refusal as LocalFileError).problem).toBe('locked');
      expect((refusal as Error).message).toBe(
        `The test file ${file} is held by another process: einvoice waited 50 ms for it.`,
      );
      expect((refusal as LocalFileError).hint).toContain('let that einvoice command finish, or stop it');
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  });
});
