/**
 * `turnloop/dbos` without its optional peer: importing it works, and the first call that needs DBOS says what to
 * install (not Node's bare ERR_MODULE_NOT_FOUND).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DbosUnavailableError, loadDbos } from '../../src/dbos/load-dbos.ts';

const DBOS_DIR = join(import.meta.dirname, '../../src/dbos');

function missing(): Promise<never> {
  return Promise.reject(Object.assign(new Error("Cannot find package '@dbos-inc/dbos-sdk'"), { code: 'ERR_MODULE_NOT_FOUND' }));
}

describe('turnloop/dbos and its optional peer', () => {
  it('no file of src/dbos imports @dbos-inc/dbos-sdk statically (types only)', () => {
    for (const name of readdirSync(DBOS_DIR)) {
      const text = readFileSync(join(DBOS_DIR, name), 'utf8');
      for (const match of text.matchAll(/^import\s+(type\s+)?[^;]*from\s+'@dbos-inc\/dbos-sdk'/gm)) {
        expect(match[1], `${name}: ${match[0]}`).toBe('type ');
      }
    }
  });

  it('a missing package becomes DbosUnavailableError naming what to install', async () => {
    const error = await loadDbos(missing).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DbosUnavailableError);
    expect((error as DbosUnavailableError).code).toBe('DBOS_UNAVAILABLE');
    expect((error as Error).message).toContain('npm install @dbos-inc/dbos-sdk');
    expect((error as DbosUnavailableError).exitCode).toBe(2);
  });

  it('any other failure passes through unchanged', async () => {
    const boom = new Error('boom');
    await expect(loadDbos(() => Promise.reject(boom))).rejects.toBe(boom);
  });

  it('loads the installed package by default', async () => {
    const dbos = await loadDbos();
    expect(typeof dbos.registerWorkflow).toBe('function');
  });
});
