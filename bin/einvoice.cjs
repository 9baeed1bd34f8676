#!/usr/bin/env node
'use strict';
// CommonJS, as dist/launch.cjs is: see src/launch.ts.
require('../dist/launch.cjs').launch(process.argv);
