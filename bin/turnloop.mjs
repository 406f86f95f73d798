#!/usr/bin/env node
// Entry point of the `turnloop` CLI: runs the built JavaScript in dist/ (`npm run build`; `npm install` builds it).
import { exitQuietlyOnClosedStdout } from '../dist/cli/cli-io.js';
import { main } from '../dist/cli/main.js';

exitQuietlyOnClosedStdout();
process.exitCode = await main(process.argv.slice(2));
