#!/usr/bin/env node
// Entry point of the `turnloop` CLI: runs the built JavaScript in dist/ (`npm run build`; `npm install` builds it).
import { main } from '../dist/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
