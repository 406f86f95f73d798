/**
 * An empty project with the packed tarball installed, as a user gets it: `npm pack` (which runs `prepack`, the
 * build), then `npm install --offline` in a temporary directory. Shared by the installed-package test and the
 * package measurements (`npm run bench:package`).
 *
 * Offline: the project gets a lockfile holding exactly the versions this repo's lock pins, so npm fetches nothing
 * but tarballs, which `npm ci` left in the cache (it does not cache registry metadata, which a lockless install
 * would need).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));

export interface RepoPackage {
  name: string;
  version: string;
  license: string;
  bin: Record<string, string>;
  engines: Record<string, string>;
  exports: Record<string, string>;
  dependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies: Record<string, string>;
}

export const repoPkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as RepoPackage;

export interface Tarball {
  filename: string;
  integrity: string;
  size: number;
  unpackedSize: number;
  files: Array<{ path: string }>;
}

export interface ConsumerProject {
  /** The temporary directory holding the tarball and the project. */
  work: string;
  project: string;
  tarball: Tarball;
  /** What `npm install` of the tarball printed on stderr (warnings included). */
  installLog: string;
}

/** No key and no colour: what a user without an Anthropic account sees, and stable text to check. */
export const CLEAN_ENV = Object.fromEntries(
  Object.entries({ ...process.env, NO_COLOR: '1' }).filter(([key]) => !/^ANTHROPIC_/.test(key) && !/^npm_/.test(key)),
) as Record<string, string>;

export interface InstallOptions {
  /** A tarball packed before (by an earlier call), instead of packing again. */
  packed?: { work: string; tarball: Tarball };
  /** The project's own zod, installed as a user does (`npm install zod@VERSION`): from the registry, cached. */
  zod?: string;
  /** The project's folder name under `work`. */
  name?: string;
}

/** Packs the tarball of the repo into `work`. */
export function packTarball(work: string): Tarball {
  const packed = execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: REPO, env: CLEAN_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return (JSON.parse(packed.slice(packed.indexOf('['))) as Tarball[])[0];
}

/** Packs the repo and installs the tarball (plus `extra` dev packages of this repo's lock, e.g. `@types/node`). */
export function installPackedPackage(extra: readonly string[] = [], options: InstallOptions = {}): ConsumerProject {
  const work = options.packed?.work ?? mkdtempSync(join(tmpdir(), 'turnloop-package-'));
  const tarball = options.packed?.tarball ?? packTarball(work);
  const project = join(work, options.name ?? 'consumer');
  mkdirSync(project);
  writeConsumerProject(project, tarball, extra);
  const install = spawnSync('npm', ['install', '--offline', '--no-audit', '--no-fund'], { cwd: project, env: CLEAN_ENV, encoding: 'utf8' });
  if (install.status !== 0) throw new Error(`npm install --offline of the tarball failed (is the npm cache filled? run npm ci first):\n${install.stderr}`);
  let installLog = install.stderr;
  if (options.zod !== undefined) {
    // The registry's metadata of zod once, then npm's cache: a project that has its own zod, of either major.
    const zod = spawnSync('npm', ['install', `zod@${options.zod}`, '--save-exact', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: project, env: CLEAN_ENV, encoding: 'utf8' });
    if (zod.status !== 0) throw new Error(`npm install zod@${options.zod} failed:\n${zod.stderr}`);
    installLog += zod.stderr;
  }
  return { work, project, tarball, installLog };
}

function writeConsumerProject(project: string, tarball: Tarball, extra: readonly string[]): void {
  const spec = `file:../${tarball.filename}`;
  const lock = JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; dependencies?: Record<string, string> }> };
  const wanted = new Set(closure(lock.packages, extra));
  const needed = Object.entries(lock.packages).filter(([path, entry]) => path !== '' && (!entry.dev || wanted.has(path)));
  const dependencies = { [repoPkg.name]: spec, ...Object.fromEntries(extra.map((name) => [name, repoPkg.devDependencies[name]])) };
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module', dependencies }, null, 2));
  const packages = {
    '': { name: 'consumer', version: '1.0.0', dependencies },
    [`node_modules/${repoPkg.name}`]: {
      version: repoPkg.version,
      resolved: spec,
      integrity: tarball.integrity,
      license: repoPkg.license,
      dependencies: repoPkg.dependencies,
      bin: repoPkg.bin,
      engines: repoPkg.engines,
    },
    ...Object.fromEntries(needed.map(([path, entry]) => [path, { ...entry, dev: undefined }])),
  };
  writeFileSync(join(project, 'package-lock.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2));
}

/**
 * The lock paths of `names` and of everything they depend on, each dependency found as Node finds it: in the
 * dependent's own nested node_modules first, then in each enclosing one, then at the top (a package that needs
 * another major of a dependency has it nested, e.g. node_modules/@dbos-inc/dbos-sdk/node_modules/commander).
 */
function closure(packages: Record<string, { dependencies?: Record<string, string> }>, names: readonly string[]): string[] {
  const seen = new Set<string>();
  const locate = (from: string, name: string): string | undefined => {
    for (let dir = from; ; ) {
      const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
      if (packages[candidate]) return candidate;
      if (dir === '') return undefined;
      const cut = dir.lastIndexOf('/node_modules/');
      dir = cut < 0 ? '' : dir.slice(0, cut);
    }
  };
  const visit = (path: string | undefined) => {
    if (path === undefined || seen.has(path)) return;
    seen.add(path);
    for (const dep of Object.keys(packages[path].dependencies ?? {})) visit(locate(path, dep));
  };
  for (const name of names) visit(locate('', name));
  return [...seen];
}
