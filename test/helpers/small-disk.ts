import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

// A real, small disk: a tmpfs mounted for the test (the tests run as root), filled by writing a file until the
// kernel answers ENOSPC, so the code under test meets the error a full disk gives wherever it writes.

export interface SmallDisk {
  dir: string;
  /** Writes a file until the disk has no room left. */
  fill(): void;
  /** Removes that file. */
  free(): void;
}

const mounted: string[] = [];
afterEach(() => {
  for (const dir of mounted.splice(0)) execFileSync('umount', [dir]);
});

/** A tmpfs of `kib` KiB, unmounted after each test of the file that calls this. */
export function smallDisk(kib: number): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), 'einvoice-small-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${kib}k,mode=0700`, 'tmpfs', dir]);
  mounted.push(dir);
  const filler = join(dir, 'filler');
  return {
    dir,
    fill() {
      const fd = openSync(filler, 'a');
      const page = Buffer.alloc(4096, 1);
      try {
        for (;;) writeSync(fd, page);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        closeSync(fd);
      }
    },
    free: () => rmSync(filler, { force: true }),
  };
}
