#!/usr/bin/env node
import { main } from '../dist/index.js';

main(process.argv).then((code) => {
  process.exitCode = code;
});
