#!/usr/bin/env node
// Turns on Node's compile cache, then runs the CLI: see src/start.ts.
import { start } from '../dist/start.js';

await start(process.argv);
