/**
 * `npm run bench:package`: the numbers of the package as a user installs it (start-up of the installed CLI, import
 * time of each entry point, tarball size, install footprint), written into the "Package" block of
 * docs/benchmarks.md (kept by `npm run bench`, which regenerates the rest of that doc).
 *
 * Times are medians over fresh processes, next to bare `node -e 0` measured interleaved, so that a busy machine
 * shows as a slow baseline rather than as a slow package.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { CLEAN_ENV, installPackedPackage, REPO, repoPkg } from '../test/package/consumer-project.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 15);
const DOC = join(REPO, 'docs/benchmarks.md');
export const BEGIN = '<!-- package-benchmarks:begin -->';
export const END = '<!-- package-benchmarks:end -->';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function wallMs(command: string, args: string[], cwd: string): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { cwd, env: CLEAN_ENV, stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Median wall times of each command, the rounds interleaved. */
function interleaved(commands: Record<string, [string, string[]]>, cwd: string): Record<string, number> {
  const samples = Object.fromEntries(Object.keys(commands).map((name) => [name, [] as number[]]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, [command, args]] of Object.entries(commands)) samples[name].push(wallMs(command, args, cwd));
  }
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
}

/**
 * In-process time of `await import(specifier)` in a fresh process (no node start-up in it), as table text. An entry
 * point that needs an optional peer dependency the consumer did not install (e.g. `turnloop/dbos`) is reported so.
 */
function importTime(specifier: string, cwd: string): string {
  const script = `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t);`;
  const optionalPeers = Object.keys((repoPkg as { peerDependenciesMeta?: Record<string, unknown> }).peerDependenciesMeta ?? {});
  const values: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd, env: CLEAN_ENV, encoding: 'utf8' });
    if (run.status !== 0) {
      const missing = /Cannot find package '([^']+)'/.exec(run.stderr)?.[1];
      if (missing && optionalPeers.includes(missing)) return `not loaded: needs the optional peer \`${missing}\``;
      throw new Error(`import(${specifier}) failed:\n${run.stderr}`);
    }
    values.push(Number(run.stdout));
  }
  return `${median(values).toFixed(0)} ms`;
}

const { work, project, tarball } = installPackedPackage();
try {
  const bin = join(project, 'node_modules/.bin/turnloop');
  const wall = interleaved({ node: [process.execPath, ['-e', '0']], help: [bin, ['--help']], version: [bin, ['--version']] }, project);
  const subpaths = Object.keys(repoPkg.exports).filter((s) => s !== './package.json');
  const imports = subpaths.map((subpath) => {
    const specifier = subpath === '.' ? repoPkg.name : `${repoPkg.name}/${subpath.slice(2)}`;
    return [specifier, importTime(specifier, project)] as const;
  });
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
  const du = (path: string) => Number(execFileSync('du', ['-sk', path], { encoding: 'utf8' }).split('\t')[0]) * 1024;
  const modules = join(project, 'node_modules');
  const packages = execFileSync('npm', ['ls', '--all', '--parseable'], { cwd: project, env: CLEAN_ENV, encoding: 'utf8' }).trim().split('\n').length - 1;
  const biggest = ['@anthropic-ai/sdk', 'zod', 'xstate', '@dagrejs/dagre', '@dagrejs/graphlib'].map((name) => `${name} ${kib(du(join(modules, name)))}`).join(', ');
  const load = loadavg().map((l) => l.toFixed(2)).join(' / ');
  const block = `${BEGIN}
## Package (installed from the tarball)

Measured by \`npm run bench:package\` (\`scripts/measure-package.ts\`) on ${new Date().toISOString().slice(0, 10)}: \`npm pack\`, then
\`npm install --offline\` of the tarball into an empty project; medians of ${ROUNDS} fresh processes, rounds interleaved.
Load average at the end: ${load} (2 cores); with other work on the machine every time below is inflated, the
baseline \`node -e 0\` by as much as the rest.

| | median |
| --- | ---: |
| \`node -e 0\` (baseline: Node's own start-up) | ${wall.node.toFixed(0)} ms |
| \`turnloop --help\` (installed bin, wall) | ${wall.help.toFixed(0)} ms |
| \`turnloop --version\` (installed bin, wall) | ${wall.version.toFixed(0)} ms |
${imports.map(([name, time]) => `| \`await import('${name}')\` (in process, after start-up) | ${time} |`).join('\n')}

| | |
| --- | ---: |
| tarball (\`${tarball.filename}\`) | ${kib(tarball.size)} packed, ${kib(tarball.unpackedSize)} unpacked, ${tarball.files.length} files |
| install footprint (\`node_modules\` of a project with only turnloop) | ${(du(modules) / 1024 / 1024).toFixed(1)} MiB, ${packages} packages |
| largest dependencies | ${biggest} |

The tarball holds \`dist/\` (compiled JavaScript with its comments, and \`.d.ts\` declarations), \`bin/\`, \`examples/\`
(the demo project and the scenarios), \`docs/\`, README and LICENSE; no \`src/\` and no source maps (the compiled
files keep the sources' structure, names and comments, and maps would only point into a \`src/\` shipped twice).
${END}`;
  const doc = readFileSync(DOC, 'utf8');
  const at = doc.indexOf(BEGIN);
  const next = at === -1 ? `${doc.trimEnd()}\n\n${block}\n` : `${doc.slice(0, at)}${block}${doc.slice(doc.indexOf(END) + END.length)}`;
  writeFileSync(DOC, next);
  console.log(block);
} finally {
  rmSync(work, { recursive: true, force: true });
}
