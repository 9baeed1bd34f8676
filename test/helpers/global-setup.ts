import { buildWhenStale } from '../../scripts/build-when-stale.ts';

// End-to-end tests spawn bin/einvoice.cjs, which runs dist/: it is built first when any source is newer.
export default function setup(): void {
  // Which Node the run used, in the log: npm test runs on the project's Node 24, test:node22 on Node 22.
  console.log(`Tests run on Node.js ${process.version}`);
  buildWhenStale();
}
