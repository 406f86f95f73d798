/**
 * A throwaway PostgreSQL server for the durable demo and the tests: Debian's `postgresql` binaries (initdb,
 * pg_ctl), a data directory in a temp dir, 127.0.0.1 only, a free port, stopped by its PID.
 *
 * Invariants: it listens on 127.0.0.1 and on a Unix socket inside its own temp dir, nowhere else; `stop()` sends
 * the postmaster (its PID from `postmaster.pid`) a fast-shutdown signal, waits for it to exit and removes the
 * directory. Postgres refuses to run as root, so as root the binaries run as the `postgres` user (`runuser`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { TurnloopError } from '../errors/turnloop-error.ts';

export interface TempPostgres {
  /** `postgresql://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  port: number;
  pid: number;
  dataDir: string;
  stop(): Promise<void>;
}

export class PostgresNotFoundError extends TurnloopError {
  readonly exitCode = 2;
  constructor() {
    super(
      'POSTGRES_NOT_FOUND',
      'no PostgreSQL server binaries found (pg_ctl, initdb): install them (Debian: apt-get install -y postgresql), ' +
        'set PG_BIN to their directory, or pass --postgres <url> of a running server',
    );
    this.name = 'PostgresNotFoundError';
  }
}

/**
 * The directory holding initdb and pg_ctl: `$PG_BIN` when set (and only it: a wrong one is not silently replaced),
 * else the newest `/usr/lib/postgresql/<v>/bin`; null when there is none.
 */
export function findPostgresBin(env: Record<string, string | undefined> = process.env, debian = '/usr/lib/postgresql'): string | null {
  const candidates: string[] = [];
  if (env.PG_BIN) candidates.push(env.PG_BIN);
  else if (existsSync(debian)) {
    const versions = readdirSync(debian).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => join(debian, v, 'bin')));
  }
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) ?? null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const isRoot = () => userInfo().uid === 0;

/** Runs a Postgres binary, as the `postgres` user when we are root. */
function runPg(bin: string, args: string[]): void {
  const [command, argv] = isRoot() ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const result = spawnSync(command, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) throw new TurnloopError('POSTGRES_COMMAND_FAILED', `${bin.split('/').pop()} failed (exit ${result.status}): ${(result.stderr || result.stdout || String(result.error)).trim()}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * @example
 * const pg = await startTempPostgres();
 * try { await use(pg.url); } finally { await pg.stop(); }
 */
export async function startTempPostgres(options: { bin?: string } = {}): Promise<TempPostgres> {
  const bin = options.bin ?? findPostgresBin();
  if (!bin) throw new PostgresNotFoundError();
  const dir = mkdtempSync(join(tmpdir(), 'turnloop-pg-'));
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const dataDir = join(dir, 'data');
  try {
    runPg(join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-instructions', '--no-sync']);
    const port = await freePort();
    const serverOptions = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c max_connections=60`;
    runPg(join(bin, 'pg_ctl'), ['-D', dataDir, '-l', join(dir, 'server.log'), '-o', serverOptions, '-w', '-t', '60', 'start']);
    const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return {
      url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
      port,
      pid,
      dataDir,
      async stop() {
        if (alive(pid)) process.kill(pid, 'SIGINT');
        for (let waited = 0; alive(pid) && waited < 30_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
        if (alive(pid)) process.kill(pid, 'SIGKILL');
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
