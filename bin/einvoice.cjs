#!/usr/bin/env node
'use strict';
// Help and the version come from the build's cache when printed into a pipe; everything else runs the CLI. This file
// is CommonJS, unlike the rest of einvoice: Node starts its ES module loader for the first ES module a process runs,
// some 5 ms, which printing a help text need not pay.
const { join } = require('node:path');
const { fstatSync } = require('node:fs');
const { helpFromCache, printToStdout } = require('../dist/help-cache.cjs');

/**
 * True when standard output may be a terminal, where commander renders help to the terminal's width. A terminal is a
 * character device: asked so rather than by process.stdout.isTTY or tty.isatty, which load Node's net module.
 * /dev/null, the other character device, gets the same help rendered live.
 */
function mayBeTerminal() {
  try {
    return fstatSync(1).isCharacterDevice();
  } catch {
    return true;
  }
}

const helpFile = join(__dirname, '..', 'dist', 'help.json');
const cached = mayBeTerminal() ? undefined : helpFromCache(process.argv.slice(2), helpFile);
if (cached === undefined) {
  import('../dist/index.js').then(async ({ main }) => {
    process.exitCode = await main(process.argv);
  });
} else {
  printToStdout(cached);
}
