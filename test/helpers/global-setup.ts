import { execFileSync } from 'node:child_process';

// End-to-end tests spawn bin/einvoice.js, which runs dist/: build it once so no test runs stale code.
export default function buildOnce(): void {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
    stdio: 'inherit',
  });
}
