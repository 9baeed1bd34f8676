#!/usr/bin/env node
import { helpFromCache } from '../dist/help-cache.js';

// Help and the version come from the build's cache when printed into a pipe; everything else runs the CLI.
const cached = process.stdout.isTTY ? undefined : helpFromCache(process.argv.slice(2));
if (cached === undefined) {
  const { main } = await import('../dist/index.js');
  process.exitCode = await main(process.argv);
} else {
  process.stdout.on('error', () => {});
  process.stdout.write(cached);
}
