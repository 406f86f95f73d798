#!/usr/bin/env node
// Entry point of the `turnloop` CLI: runs the TypeScript sources through tsx's loader (no build step).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
const { exitQuietlyOnClosedStdout } = await import('../src/cli/cli-io.ts');
exitQuietlyOnClosedStdout();
process.exitCode = await main(process.argv.slice(2));
