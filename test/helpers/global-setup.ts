import { execFileSync } from 'node:child_process';

// End-to-end tests spawn bin/einvoice.cjs, which runs dist/: build it when any source is newer than the last build,
// so no test runs stale code and concurrent runs do not rewrite dist/ under each other needlessly.
export default function buildWhenStale(): void {
  // Which Node the run used, in the log: npm test runs on the project's Node 24, test:node22 on Node 22.
  console.log(`Tests run on Node.js ${process.version}`);
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { stdio: 'inherit' });
}
