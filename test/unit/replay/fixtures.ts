/**
 * Shared fixtures of the replay tests: a run driven by the scripted in-process model and tools, recorded to a
 * temporary session log.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig, type ConfigOverrides } from '../../../src/config/config.ts';
import { runLoopToEnd } from '../../../src/drivers/run-loop.ts';
import type { QueryItem } from '../../../src/messages/types.ts';
import type { Terminal } from '../../../src/data/outcomes.ts';
import { scriptedModelCaller, scriptedToolRuntime, type ScriptedReply, type ScriptedTool } from '../../../src/replay/scripted-deps.ts';
import { createSessionRecorder, type SessionRecorder } from '../../../src/replay/session-recorder.ts';
import type { RedactOptions } from '../../../src/replay/redact.ts';
import { headerHash } from '../../../src/replay/session-recorder.ts';
import { lineHash } from '../../../src/replay/stable-hash.ts';

export function tempLogPath(name = 'session.jsonl'): string {
  return join(mkdtempSync(join(tmpdir(), 'turnloop-replay-')), name);
}

/** `turns` tool turns (one Read each) and a final text reply. */
export function toolTurns(turns: number, text = 'file contents'): { model: ScriptedReply[]; tools: ScriptedTool[] } {
  const model: ScriptedReply[] = [];
  for (let i = 1; i <= turns; i++) {
    model.push({
      content: [
        { type: 'text', text: `Reading part ${i}.` },
        { type: 'tool_use', id: `toolu_${i}`, name: 'Read', input: { path: `f${i}.txt` } },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 100 * i, output_tokens: 20 },
    });
  }
  model.push({ content: [{ type: 'text', text: 'All done.' }], stop_reason: 'end_turn', usage: { input_tokens: 100 * (turns + 1), output_tokens: 5 } });
  const tools = [{ name: 'Read', results: Array.from({ length: turns }, (_, i) => ({ content: `${text} ${i + 1}` })) }];
  return { model, tools };
}

export interface RecordedRun {
  path: string;
  items: QueryItem[];
  terminal: Terminal;
  recorder: SessionRecorder;
}

let idCounter = 0;

/** Runs `query()` with the scripted deps and records it. */
export async function recordRun(options: {
  model: ScriptedReply[];
  tools?: ScriptedTool[];
  prompt?: string;
  config?: ConfigOverrides;
  maxTurns?: number;
  redact?: RedactOptions;
  path?: string;
}): Promise<RecordedRun> {
  const path = options.path ?? tempLogPath();
  const config = resolveConfig({ sessionId: 'test-session', ...options.config });
  const recorder = createSessionRecorder(path, { config, redact: options.redact });
  let ids = 0;
  const run = ++idCounter;
  const { items, terminal } = await runLoopToEnd({
    prompt: options.prompt ?? 'Read the files and summarise them.',
    config,
    ...(options.maxTurns !== undefined ? { maxTurns: options.maxTurns } : {}),
    tools: scriptedToolRuntime(options.tools ?? []),
    deps: {
      callModel: scriptedModelCaller(options.model),
      newId: () => `id-${run}-${++ids}`,
      clock: { now: () => 1_700_000_000_000, sleep: async () => undefined },
    },
    onStep: recorder,
  });
  recorder.close();
  if (recorder.error) throw recorder.error;
  return { path, items, terminal, recorder };
}

/**
 * Recomputes the hash chain of version-2 or version-3 log lines (header first) after a test edited them, as a
 * recorder that wrote those bytes would have, each line its own commit group: each hash covers the line's bytes
 * before its hash member.
 */
export function reseal(list: readonly string[]): string[] {
  const out: string[] = [];
  let previous = '';
  const version = (JSON.parse(list[0]) as { version: 2 | 3 }).version;
  for (const [index, line] of list.entries()) {
    const member = index === 0 ? 'initialHash' : 'hash';
    const parsed = JSON.parse(line) as Record<string, unknown>;
    delete parsed[member];
    const prefix = JSON.stringify(parsed).slice(0, -1);
    previous = index === 0 ? headerHash(version, prefix) : lineHash(previous, prefix);
    out.push(`${prefix},"${member}":"${previous}"}`);
  }
  return out;
}
