import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

// Folders of installs (an installed package is tens of megabytes, a clone's node_modules hundreds): removed once the
// test file's tests are done, where most tests leave their small temporary folders to the system.

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Removes `folder` after the test file's tests; returns it. */
export function removedAfterAll(folder: string): string {
  folders.push(folder);
  return folder;
}

/** A new empty folder, removed after the test file's tests. */
export function largeFolder(label: string): string {
  return removedAfterAll(mkdtempSync(join(tmpdir(), `einvoice-${label}-`)));
}
