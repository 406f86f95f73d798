/**
 * The two executables an SDK program can drive, and the `query()` options that point the SDK at each of them
 * with the offline environment: the fake API's URL, a dummy key, a temporary config directory and home, and the
 * switches that keep the real executable quiet (no telemetry, no updater, no error reports, no other traffic).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Options } from '@anthropic-ai/claude-agent-sdk';
import { headlessSnapshotArgs } from '../../../src/agent-sdk/headless-snapshot-args.ts';

export type EngineName = 'claude' | 'turnloop';
export const ENGINES: readonly EngineName[] = ['claude', 'turnloop'];

const here = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = resolve(here, '../../..');
/** turnloop's bin (runs the root's dist/). */
export const TURNLOOP_BIN = join(REPO_ROOT, 'bin/turnloop.mjs');
/** The native executable the SDK's optional dependency installs (the one the SDK runs by default). */
export const CLAUDE_BIN = join(here, '../node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude');

/** Both executables are asked for this model: the fake API's model table knows its limits. */
export const MODEL = 'claude-sonnet-4-6';

/** A fresh working directory, config directory and home for one run. */
export interface RunDirs {
  cwd: string;
  configDir: string;
}

export function makeRunDirs(): RunDirs {
  return { cwd: mkdtempSync(join(tmpdir(), 'sdk-cwd-')), configDir: mkdtempSync(join(tmpdir(), 'sdk-config-')) };
}

/** The environment of the spawned executable: nothing inherited but PATH, so no real key or setting leaks in. */
export function offlineEnv(baseURL: string, dirs: RunDirs): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dirs.configDir,
    CLAUDE_CONFIG_DIR: dirs.configDir,
    ANTHROPIC_BASE_URL: baseURL,
    ANTHROPIC_API_KEY: 'sk-ant-offline-dummy-key',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
  };
}

/** The options that select an engine; a program spreads them into its own `query()` options. */
export function engineOptions(engine: EngineName, baseURL: string, dirs: RunDirs): Options {
  const common: Options = { cwd: dirs.cwd, model: MODEL, env: offlineEnv(baseURL, dirs), settingSources: [] };
  return engine === 'claude'
    ? { ...common, pathToClaudeCodeExecutable: CLAUDE_BIN }
    : { ...common, pathToClaudeCodeExecutable: TURNLOOP_BIN, executable: 'node', ...turnloopStart() };
}

/**
 * How the SDK starts turnloop: from the build's start-up snapshot when it fits this Node, as `agentSdkOptions()`
 * does (src/agent-sdk/headless-snapshot-args.ts), else the plain bin.
 */
function turnloopStart(): Pick<Options, 'executableArgs'> {
  const args = headlessSnapshotArgs(join(REPO_ROOT, 'dist/cli'));
  return args.length > 0 ? { executableArgs: args } : {};
}

/** The argv that runs an engine's print mode (`claude -p` / `turnloop -p`). */
export function printCommand(engine: EngineName): { command: string; args: string[] } {
  return engine === 'claude' ? { command: CLAUDE_BIN, args: [] } : { command: process.execPath, args: [TURNLOOP_BIN] };
}
