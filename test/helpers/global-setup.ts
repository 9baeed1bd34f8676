import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const stamp = 'dist/.built';

function newestSource(folder: string): number {
  return readdirSync(folder, { withFileTypes: true }).reduce(
    (newest, entry) => {
      const path = join(folder, entry.name);
      return Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
    },
    Math.max(...['tsconfig.build.json', 'scripts/build.mjs'].map((file) => statSync(file).mtimeMs)),
  );
}

// End-to-end tests spawn bin/einvoice.cjs, which runs dist/: build it when any source is newer than the last build,
// so no test runs stale code and concurrent runs do not rewrite dist/ under each other needlessly.
export default function buildWhenStale(): void {
  // Which Node the run used, in the log: npm test runs on the project's Node 24, test:node22 on Node 22.
  console.log(`Tests run on Node.js ${process.version}`);
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= newestSource('src')) return;
  // The build script writes the stamp once dist/ is complete.
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
}
