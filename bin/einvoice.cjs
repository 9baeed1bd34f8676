#!/usr/bin/env node
// Turns on Node's compile cache, then runs the CLI: see src/start.ts. CommonJS, as the bundle it loads is, so that
// Node starts no ES module loader to print `einvoice --help`.
require('../dist/start.cjs').start(process.argv);
