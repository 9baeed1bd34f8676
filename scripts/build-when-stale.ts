import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// What runs the built CLI (the end-to-end tests, the torture run) builds dist/ first when any source is newer than
// the last build, so it never runs stale code, and runs at once do not rewrite dist/ under each other needlessly.

const root = fileURLToPath(new URL('..', import.meta.url));
const stamp = join(root, 'dist/.built');

function newestSource(folder: string): number {
  return readdirSync(folder, { withFileTypes: true }).reduce(
    (newest, entry) => {
      const path = join(folder, entry.name);
      return Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
    },
    Math.max(...['tsconfig.build.json', 'scripts/build.mjs'].map((file) => statSync(join(root, file)).mtimeMs)),
  );
}

/** Builds dist/ when a file of src/ (or the build itself) is newer than the last build. */
export function buildWhenStale(): void {
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= newestSource(join(root, 'src'))) return;
  // The build script writes the stamp once dist/ is complete.
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
}
