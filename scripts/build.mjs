// `npm run build`: a clean dist/ (no files left from moved sources), the compiled sources with their type
// declarations, the runtime assets the compiled code reads (the viewer's CSS and JS), and the headless mode's
// one-file bundle with its V8 code cache (src/cli/bundle-loader.ts: what bin/turnloop.mjs runs for `turnloop -p`).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${root}dist`, { recursive: true, force: true });
const tsc = `${dirname(createRequire(import.meta.url).resolve('typescript/package.json'))}/bin/tsc`;
execFileSync(process.execPath, [tsc, '-p', `${root}tsconfig.build.json`], { stdio: 'inherit' });
cpSync(`${root}src/viz/viewer`, `${root}dist/viz/viewer`, { recursive: true });

const { HEADLESS_BUNDLE, loadBundle, codeCachePath } = await import(`${root}dist/cli/bundle-loader.js`);
const bundleFile = `${root}dist/cli/${HEADLESS_BUNDLE}`;
const bundled = await build({
  absWorkingDir: root,
  metafile: true,
  entryPoints: [`${root}dist/cli/headless-entry.js`],
  outfile: bundleFile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // The packages left outside load through require() (all of them have a CommonJS build): V8 drops a script's
  // import() callback when it runs from a code cache in Node 20, and Node's own callback is still experimental.
  supported: { 'dynamic-import': false },
  // Left to Node's loader: packages that find files next to themselves (WASM), load only for some runs, or are
  // optional peers a program installs itself.
  external: [
    're2-wasm',
    '@vscode/tree-sitter-wasm',
    'ajv',
    'ajv/*',
    'yaml',
    '@modelcontextprotocol/sdk',
    '@modelcontextprotocol/sdk/*',
    '@dbos-inc/*',
    '@opentelemetry/sdk-trace-base',
    '@opentelemetry/exporter-trace-otlp-http',
    '@opentelemetry/resources',
    'pg',
  ],
  // The bundle sits in dist/cli/, where headless-entry.js is: paths the sources build from their own URL
  // (examples/, package.json) stay right. Files deeper in dist/ only use theirs to resolve packages.
  define: { 'import.meta.url': '__bundleUrl' },
  // `Headers` and `FormData` of the bundle's code without loading undici (src/cli/bundle-globals.ts says why).
  inject: [`${root}dist/cli/bundle-globals.js`],
  banner: { js: `/* turnloop's headless mode in one file; the packages bundled in it and their licenses: ${HEADLESS_BUNDLE.replace(/\.cjs$/, '.licenses.txt')} */\nconst __bundleUrl = require('node:url').pathToFileURL(__filename).href;` },
  logLevel: 'warning',
});

// All ASCII, so the loader reads it without decoding UTF-8 (bundle-loader.ts): esbuild escapes every non-ASCII
// character of strings, templates and regular expressions (its default `charset: 'ascii'`) but keeps comments as
// written; the same \uXXXX escape there changes nothing the code does.
const bundleSource = readFileSync(bundleFile, 'utf8');
writeFileSync(bundleFile, bundleSource.replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`));

// The third-party packages now inside the bundle, each with its license text, beside it (the bundle copies their code).
const packageDirs = new Set();
for (const input of Object.keys(bundled.metafile.inputs)) {
  const at = input.lastIndexOf('node_modules/');
  if (at < 0) continue;
  const rest = input.slice(at + 'node_modules/'.length).split('/');
  packageDirs.add(input.slice(0, at) + 'node_modules/' + rest.slice(0, rest[0].startsWith('@') ? 2 : 1).join('/'));
}
const notices = [...packageDirs].sort().map((dir) => {
  const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  const files = readdirSync(join(root, dir)).filter((name) => /^(licen[cs]e|copying|notice)/i.test(name)).sort();
  const texts = files.map((name) => readFileSync(join(root, dir, name), 'utf8').trim());
  return [`${pkg.name} ${pkg.version} (${pkg.license ?? 'see its license text'})`, ...texts].join('\n\n');
});
writeFileSync(bundleFile.replace(/\.cjs$/, '.licenses.txt'), `${notices.join(`\n\n${'-'.repeat(80)}\n\n`)}\n`);

// The code cache: compiled after two offline runs on the shipped hello script, `-p` and the Agent SDK's stream-json
// session, so it holds what such runs compile. Its name carries this Node's V8 version; another V8 never reads it.
const cwd = mkdtempSync(join(tmpdir(), 'turnloop-build-'));
try {
  const loaded = loadBundle(bundleFile, 'make-cache');
  const io = { stdout: { write: () => true }, stderr: process.stderr, env: {}, cwd };
  const sdkSession = [
    { type: 'control_request', request_id: 'req_1', request: { subtype: 'initialize' } },
    { type: 'user', message: { role: 'user', content: 'Say hello' }, parent_tool_use_id: null, session_id: '' },
  ].map((line) => `${JSON.stringify(line)}\n`);
  const warmUps = [
    [['-p', 'Say hello'], Readable.from([])],
    [['--output-format', 'stream-json', '--verbose', '--input-format', 'stream-json'], Readable.from(sdkSession)],
  ];
  for (const [args, stdin] of warmUps) {
    const code = await loaded.exports.headlessMain([...args, '--example', 'hello', '--no-session-persistence'], { ...io, stdin });
    if (code !== 0) throw new Error(`build: the headless bundle's warm-up run ${args.join(' ')} ended with exit code ${code}`);
  }
  const cache = loaded.createCache();
  if (cache) writeFileSync(codeCachePath(bundleFile), cache);
} finally {
  rmSync(cwd, { recursive: true, force: true });
}
