// `npm run build`: a clean dist/ (no files left from moved sources), the compiled sources with their type
// declarations, the runtime assets the compiled code reads (the viewer's CSS and JS), and the headless mode's
// one-file bundle with its V8 code cache (src/cli/bundle-loader.ts: what bin/turnloop.mjs runs for `turnloop -p`).
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${root}dist`, { recursive: true, force: true });
const tsc = `${dirname(createRequire(import.meta.url).resolve('typescript/package.json'))}/bin/tsc`;
execFileSync(process.execPath, [tsc, '-p', `${root}tsconfig.build.json`], { stdio: 'inherit' });
cpSync(`${root}src/viz/viewer`, `${root}dist/viz/viewer`, { recursive: true });

const { HEADLESS_BUNDLE, HEADLESS_START } = await import(`${root}dist/cli/bundle-loader.js`);
const bundleFile = `${root}dist/cli/${HEADLESS_BUNDLE}`;

// What bin/ requires first: the check of the command line and the bundle's loader as one CommonJS file, so a
// headless start-up reads one file through require() instead of two modules through the ES module loader.
await build({
  absWorkingDir: root,
  stdin: {
    contents: `export { isHeadlessInvocation } from './dist/agent-sdk/headless-invocation.js';\nexport { HEADLESS_BUNDLE, loadBundle } from './dist/cli/bundle-loader.js';\n`,
    resolveDir: root,
    sourcefile: 'headless-start.js',
  },
  outfile: `${root}dist/cli/${HEADLESS_START}`,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
});

// Node built-ins the bundle's code uses only when a run does a certain thing (child_process: a Bash call, a command
// hook, an MCP server's process) are required at their first use instead of at start-up: each such import is
// bound to an object whose properties, the built-in's own, require it when read. http and https (the model client's
// first request) too: Node 20's snapshot builder cannot load them (src/cli/headless-snapshot.ts), and a session
// loads them before its first request either way.
const LAZY_BUILTINS = ['node:child_process', 'node:http', 'node:https'];
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(esbuild) {
    const filter = new RegExp(`^(${LAZY_BUILTINS.join('|')})$`);
    esbuild.onResolve({ filter }, (args) => (args.namespace === 'lazy-builtin' ? { path: args.path, external: true } : { path: args.path, namespace: 'lazy-builtin' }));
    esbuild.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => {
      const names = Object.keys(createRequire(import.meta.url)(args.path));
      const contents = [
        'let builtin;',
        `const load = () => (builtin ??= require(${JSON.stringify(args.path)}));`,
        `for (const name of ${JSON.stringify(names)}) Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });`,
      ].join('\n');
      return { contents, loader: 'js' };
    });
  },
};
const bundled = await build({
  absWorkingDir: root,
  metafile: true,
  entryPoints: [`${root}dist/cli/headless-entry.js`],
  outfile: bundleFile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // Without whitespace and comments, in shorter syntax, with every name kept (a stack trace still names each
  // function): a third less text to read at start-up and to parse for each function compiled at run time.
  minifyWhitespace: true,
  minifySyntax: true,
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
  plugins: [lazyBuiltins],
  logLevel: 'warning',
});

// All ASCII, so the loader reads it without decoding UTF-8 (bundle-loader.ts): esbuild escapes every non-ASCII
// character of strings, templates and regular expressions (its default `charset: 'ascii'`) but keeps comments as
// written; the same \uXXXX escape there changes nothing the code does.
const bundleSource = readFileSync(bundleFile, 'utf8');
writeFileSync(bundleFile, bundleSource.replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`));

// What the bundle holds, one path a line (the minified bundle no longer heads each module with its path).
writeFileSync(bundleFile.replace(/\.cjs$/, '.inputs.txt'), `${Object.keys(bundled.metafile.inputs).sort().join('\n')}\n`);

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

// The code cache (compiled after offline runs of what a headless process does; its name carries this Node's V8
// version, another V8 never reads it) and the start-up snapshot (src/cli/headless-snapshot.ts), both for this Node:
// src/cli/headless-warm-start.ts, which `turnloop snapshot` runs for a user's Node. The snapshot builder runs one
// script that may require Node's built-ins only, so its entry is bundled into one file first (shipped: small). The
// published package leaves the blob and its description out (package.json `files`): a blob fits one Node exactly.
const { HEADLESS_SNAPSHOT_ENTRY, makeHeadlessCodeCache, makeHeadlessSnapshot } = await import(`${root}dist/cli/headless-warm-start.js`);
await makeHeadlessCodeCache(bundleFile);
await build({
  absWorkingDir: root,
  stdin: {
    contents: [
      `import { prepareHeadlessSnapshot } from './dist/cli/headless-snapshot.js';`,
      `const via = prepareHeadlessSnapshot(process.argv[2]);`,
      "if (via !== 'cached') throw new Error(`the snapshot's bundle was ${via}, not run from its code cache`);",
    ].join('\n'),
    resolveDir: root,
    sourcefile: 'headless-snapshot-entry.js',
  },
  outfile: `${root}dist/cli/${HEADLESS_SNAPSHOT_ENTRY}`,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
});
const snapshot = makeHeadlessSnapshot(bundleFile);
if (!snapshot.made) process.stderr.write(`build: no start-up snapshot for Node ${process.version} (the headless mode starts without it): ${snapshot.reason}\n`);
