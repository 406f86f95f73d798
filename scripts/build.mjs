// `npm run build`: a clean dist/ (no files left from moved sources), the compiled sources with their type
// declarations, and the runtime assets the compiled code reads (the viewer's CSS and JS).
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${root}dist`, { recursive: true, force: true });
const tsc = `${dirname(createRequire(import.meta.url).resolve('typescript/package.json'))}/bin/tsc`;
execFileSync(process.execPath, [tsc, '-p', `${root}tsconfig.build.json`], { stdio: 'inherit' });
cpSync(`${root}src/viz/viewer`, `${root}dist/viz/viewer`, { recursive: true });
