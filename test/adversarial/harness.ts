/**
 * The adversarial harness: one hostile run of the real loop (the real Anthropic SDK against the loopback fake API,
 * the real file tools in a temporary workspace, a real session recorder) and the invariants every case asserts:
 * - the run ends in one of the 10 terminals;
 * - every request sent to the API is well-formed: each tool_use id appears once and is answered exactly once by a
 *   tool_result in the next user message (docs/loop.md §9.9), and no tool_result answers nothing;
 * - model calls are bounded (no more requests than answers scripted, and at most the config's cap);
 * - no planted secret appears in the session log (what the run hands its caller in memory is the caller's own data:
 *   the model must see real file contents, so emitted items are not redacted; every output that leaves the
 *   process, logs, pages, CLI text, is);
 * - nothing outside the workspace root changed (every file beside the root is snapshotted before and after).
 * Wall time is bounded by the test timeout (generous, not a performance assertion).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { expect } from 'vitest';
import type { ConfigOverrides } from '../../src/config/config.ts';
import { createAnthropicModelCaller } from '../../src/model/index.ts';
import { runLoopToEnd } from '../../src/drivers/run-loop.ts';
import type { Tool } from '../../src/tools/define-tool.ts';
import { startFakeAnthropicApi } from '../../src/fake-api/server.ts';
import type { FakeAnswerInput } from '../../src/fake-api/script-schema.ts';
import type { QueryItem } from '../../src/messages/types.ts';
import { TERMINAL_REASONS, type Terminal } from '../../src/data/outcomes.ts';
import { replay } from '../../src/replay/replay.ts';
import { createSessionRecorder } from '../../src/replay/session-recorder.ts';
import { createFileTools } from '../../src/tools/builtin/index.ts';

/** Secrets planted in workspaces and replies; none may be seen in any output. */
export const SECRETS = {
  anthropic: 'sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa_AA',
  aws: 'AKIAZ7Q4EXAMPLE2KEYX',
  awsSecret: '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',
  github: 'ghp_R4nd0mT0k3nV4lu3F0rT3st1ngOnly0000AB',
  gitlab: 'glpat-Xy7Wv6Ut5Sr4Qp3On2Ml',
  slack: 'xoxb-123456789012-abcdefghijklmnop',
  google: 'AIzaSyD-aB3cD4eF5gH6iJ7kL8mN9oP0qR1sT2u',
  jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZHZlcnNhcnkiLCJuIjoxfQ.c2lnbmF0dXJlLXBhcnQtb2YtdGhlLWp3dA',
  pemBody: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7hostiletestkey',
  envValue: 'hunter2-very-secret-db-password',
} as const;

export const PEM = `-----BEGIN PRIVATE KEY-----\n${SECRETS.pemBody}\n${SECRETS.pemBody}\n-----END PRIVATE KEY-----`;

/** A text holding every planted secret in the shapes they are found in the wild. */
export const SECRET_FILE = [
  `ANTHROPIC_API_KEY=${SECRETS.anthropic}`,
  `aws_access_key_id = ${SECRETS.aws}`,
  `aws_secret_access_key = ${SECRETS.awsSecret}`,
  `GITHUB_TOKEN=${SECRETS.github}`,
  `gitlab: ${SECRETS.gitlab}`,
  `slack_bot ${SECRETS.slack}`,
  `maps key ${SECRETS.google}`,
  `Authorization: Bearer ${SECRETS.jwt}`,
  `DB_PASSWORD="${SECRETS.envValue}"`,
  PEM,
  '',
].join('\n');

export interface Sandbox {
  /** Parent of the root: holds files the tools must never read or change. */
  dir: string;
  root: string;
  outsideFile: string;
  cleanup(): void;
}

export function makeSandbox(files: Record<string, string> = {}): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), 'turnloop-adv-'));
  const root = join(dir, 'root');
  mkdirSync(root);
  const outsideFile = join(dir, 'outside.txt');
  writeFileSync(outsideFile, `outside the root\n${SECRET_FILE}`);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(root, name, '..'), { recursive: true });
    writeFileSync(join(root, name), content);
  }
  return { dir, root, outsideFile, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Every regular file beside the root (not under it, and not the runs' own session logs), with size, mtime and content. */
export function snapshotOutside(sandbox: Sandbox): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (path === sandbox.root || /^session-.*\.jsonl$/.test(name)) continue;
      const stats = statSync(path, { throwIfNoEntry: false });
      if (!stats) continue;
      if (stats.isDirectory()) walk(path);
      else if (stats.isFile()) out[relative(sandbox.dir, path)] = `${stats.size}:${stats.mtimeMs}:${readFileSync(path, 'utf8')}`;
    }
  };
  walk(sandbox.dir);
  return out;
}

export interface HostileRun {
  terminal: Terminal;
  items: QueryItem[];
  requests: Array<{ messages: Array<{ role: string; content: unknown }> }>;
  logText: string;
  logPath: string;
}

export interface HostileRunOptions {
  model: FakeAnswerInput[];
  sandbox: Sandbox;
  prompt?: string;
  config?: ConfigOverrides;
  tools?: Tool[];
  signal?: AbortSignal;
  maxTurns?: number;
}

/** Runs the loop once against hostile answers; the run must settle (the test timeout bounds the wall time). */
export async function runHostile(options: HostileRunOptions): Promise<HostileRun> {
  const api = await startFakeAnthropicApi({ model: options.model });
  const logPath = join(options.sandbox.dir, `session-${Math.random().toString(36).slice(2)}.jsonl`);
  const config = { sessionId: 'adversarial', retry: { maxRetries: 0 }, ...options.config } as ConfigOverrides;
  const recorder = createSessionRecorder(logPath, { config });
  try {
    const { items, terminal } = await runLoopToEnd({
      prompt: options.prompt ?? 'Look around the workspace.',
      config,
      tools: options.tools ?? createFileTools({ root: options.sandbox.root }),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.maxTurns !== undefined ? { maxTurns: options.maxTurns } : {}),
      deps: { callModel: createAnthropicModelCaller({ apiKey: SECRETS.anthropic, baseURL: api.baseURL }) },
      onStep: recorder,
    });
    recorder.close();
    if (recorder.error) throw recorder.error;
    return { terminal, items, requests: api.requests as HostileRun['requests'], logText: readFileSync(logPath, 'utf8'), logPath };
  } finally {
    await api.close();
  }
}

type Block = { type: string; id?: string; tool_use_id?: string };

function blocksOf(content: unknown): Block[] {
  return Array.isArray(content) ? (content as Block[]) : [];
}

/** The API's pairing rules, checked on one request's messages; returns the problems found. */
export function pairingProblems(messages: HostileRun['requests'][number]['messages']): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  messages.forEach((message, i) => {
    if (message.role !== 'assistant') return;
    const uses = blocksOf(message.content).filter((b) => b.type === 'tool_use');
    for (const use of uses) {
      if (seen.has(use.id!)) problems.push(`tool_use id ${use.id} appears twice`);
      seen.add(use.id!);
    }
    if (uses.length === 0) return;
    const next = messages[i + 1];
    const results = next && next.role === 'user' ? blocksOf(next.content).filter((b) => b.type === 'tool_result') : [];
    for (const use of uses) {
      const answers = results.filter((r) => r.tool_use_id === use.id).length;
      if (answers !== 1) problems.push(`tool_use ${use.id} (message ${i}) has ${answers} results in the next message`);
    }
  });
  messages.forEach((message, i) => {
    if (message.role !== 'user') return;
    const previous = messages[i - 1];
    const asked = new Set(previous?.role === 'assistant' ? blocksOf(previous.content).filter((b) => b.type === 'tool_use').map((b) => b.id) : []);
    for (const result of blocksOf(message.content).filter((b) => b.type === 'tool_result')) {
      if (!asked.has(result.tool_use_id)) problems.push(`tool_result ${result.tool_use_id} (message ${i}) answers no tool_use`);
    }
  });
  return problems;
}

/** The invariants of every adversarial case (see the module comment). */
export function expectInvariants(run: HostileRun, sandbox: Sandbox, before: Record<string, string>, bounds: { maxModelCalls: number }): void {
  expect(TERMINAL_REASONS).toContain(run.terminal.reason);
  for (const [i, request] of run.requests.entries()) expect(pairingProblems(request.messages), `request ${i}`).toEqual([]);
  expect(run.requests.length).toBeLessThanOrEqual(bounds.maxModelCalls);
  expectNoSecret(run.logText, 'session log');
  expect(snapshotOutside(sandbox), 'files outside the root').toEqual(before);
  // A redacted log replays its own session: every recorded hash is checked.
  expect(replay(run.logPath).terminal?.reason).toBe(run.terminal.reason);
}

export function expectNoSecret(text: string, where: string): void {
  for (const [kind, secret] of Object.entries(SECRETS)) expect(text.includes(secret), `${kind} secret in ${where}`).toBe(false);
}

/** The tool_result texts of the requests, in order. */
export function toolResultTexts(run: HostileRun): string[] {
  return run.requests.slice(1).flatMap((r) => {
    const last = r.messages[r.messages.length - 1]!;
    return (Array.isArray(last.content) ? (last.content as Array<{ type: string; content?: unknown }>) : [])
      .filter((b) => b.type === 'tool_result')
      .map((b) => (typeof b.content === 'string' ? b.content : JSON.stringify(b.content)));
  });
}
