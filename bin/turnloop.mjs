#!/usr/bin/env node
// Entry point of the `turnloop` CLI: runs the TypeScript sources through tsx's loader (no build step).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
