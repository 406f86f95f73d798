/**
 * Builds a Claude Code 1.0.x-shaped session file from a 2.x one: each Task subagent transcript of
 * `<session>/subagents/agent-<id>.jsonl` is written back into the session file as an inline sidechain, as 1.0.x
 * recorded subagents. The committed fixture `test/fixtures/claude-code-transcripts/fa812bfe-inline-sidechains.jsonl`
 * is this script's output (`test/unit/claude/inline-sidechains.test.ts` checks it is up to date):
 *
 *   npx tsx scripts/inline-sidechains.ts            # rewrite the fixture
 *
 * What changes, and only that:
 * - the subagent's lines (already `isSidechain: true`, first line `parentUuid: null`) lose their 2.x `agentId`
 *   field and are merged into the session by timestamp, after the parent's Task tool_use line and before the
 *   Task's tool result line (lines of subagents running at once interleave the same way);
 * - the parent's `agent_progress` lines of that subagent are dropped (the sidechain is the record now);
 * - the Task tool result loses the 2.x trailer block ("agentId: … (for resuming …)") and `toolUseResult.agentId`,
 *   so nothing but the prompt links the sidechain to its Task call, as in 1.0.x;
 * - compaction agents (`agent-acompact-*`) are not inlined; the `subagents/` folder is not part of the output.
 * Every other line is kept byte for byte.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

type Json = Record<string, unknown>;

export interface SubagentText {
  agentId: string;
  text: string;
}

interface Queue {
  /** Index (in the session's lines) of the tool_use line it runs after and of the tool result line it ends before. */
  after: number;
  before: number;
  lines: Array<{ text: string; ts: string }>;
}

const nonEmptyLines = (text: string) => text.split('\n').filter((l) => l.trim() !== '');
const contentOf = (json: Json): Json[] => {
  const c = (json.message as Json | undefined)?.content;
  return Array.isArray(c) ? (c as Json[]) : [];
};

/** The Task tool_use id a 2.x session links to `agentId` (its tool result's `toolUseResult.agentId`). */
function taskOf(session: Json[], agentId: string): string {
  for (const json of session) {
    const result = json.toolUseResult as Json | undefined;
    const block = contentOf(json).find((b) => b.type === 'tool_result');
    if (json.type === 'user' && block && result?.agentId === agentId) return String(block.tool_use_id);
  }
  throw new Error(`no Task tool result of the session names agent ${agentId}`);
}

function withoutAgentTrailer(json: Json, toolUseId: string): Json {
  const message = json.message as Json;
  const content = contentOf(json).map((b) => {
    if (b.type !== 'tool_result' || b.tool_use_id !== toolUseId || !Array.isArray(b.content)) return b;
    return { ...b, content: (b.content as Json[]).filter((x) => !(x.type === 'text' && String(x.text).startsWith('agentId: '))) };
  });
  const { agentId: _dropped, ...result } = json.toolUseResult as Json;
  return { ...json, message: { ...message, content }, toolUseResult: result };
}

/** The 1.0.x-shaped session text: `subagents` inlined into `sessionText`. Pure. */
export function inlineSidechains(sessionText: string, subagents: readonly SubagentText[]): string {
  const texts = nonEmptyLines(sessionText);
  const session = texts.map((t) => JSON.parse(t) as Json);
  const toolUseIds = new Map(subagents.map((s) => [s.agentId, taskOf(session, s.agentId)]));
  const inlined = new Set(toolUseIds.values());
  const queues: Queue[] = subagents.map((s) => {
    const id = toolUseIds.get(s.agentId) as string;
    const after = session.findIndex((j) => j.type === 'assistant' && contentOf(j).some((b) => b.type === 'tool_use' && b.id === id));
    const before = session.findIndex((j) => j.type === 'user' && contentOf(j).some((b) => b.type === 'tool_result' && b.tool_use_id === id));
    const lines = nonEmptyLines(s.text).map((t) => {
      const { agentId: _dropped, ...json } = JSON.parse(t) as Json;
      return { text: JSON.stringify(json), ts: String(json.timestamp ?? '') };
    });
    return { after, before: before === -1 ? texts.length : before, lines };
  });

  const out: string[] = [];
  /** Writes the queued sidechain lines due before session line i, oldest first across subagents. */
  const flush = (i: number, ts: string) => {
    for (;;) {
      const due = queues.filter((q) => q.after < i && q.lines.length > 0 && (q.lines[0].ts <= ts || i >= q.before));
      if (due.length === 0) return;
      const next = due.reduce((a, b) => (b.lines[0].ts < a.lines[0].ts ? b : a));
      out.push((next.lines.shift() as { text: string }).text);
    }
  };
  let ts = '';
  for (const [i, json] of session.entries()) {
    ts = typeof json.timestamp === 'string' ? json.timestamp : ts;
    flush(i, ts);
    const data = json.data as Json | undefined;
    if (json.type === 'progress' && data?.type === 'agent_progress' && inlined.has(String(json.parentToolUseID))) continue;
    const answered = contentOf(json).find((b) => b.type === 'tool_result' && inlined.has(String(b.tool_use_id)));
    out.push(json.type === 'user' && answered ? JSON.stringify(withoutAgentTrailer(json, String(answered.tool_use_id))) : texts[i]);
  }
  flush(session.length, '\uffff');
  return `${out.join('\n')}\n`;
}

const FIXTURES = fileURLToPath(new URL('../test/fixtures/claude-code-transcripts/', import.meta.url));
export const INLINE_FIXTURE = { source: join(FIXTURES, 'fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl'), output: join(FIXTURES, 'fa812bfe-inline-sidechains.jsonl') };

/** The fixture's text, from its 2.x source and that session's Task subagent files. */
export function buildInlineFixture(source = INLINE_FIXTURE.source): string {
  const dir = join(source.replace(/\.jsonl$/, ''), 'subagents');
  const subagents = readdirSync(dir)
    .filter((name) => /^agent-(?!acompact).*\.jsonl$/.test(name))
    .sort()
    .map((name) => ({ agentId: basename(name, '.jsonl').slice('agent-'.length), text: readFileSync(join(dir, name), 'utf8') }));
  return inlineSidechains(readFileSync(source, 'utf8'), subagents);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(INLINE_FIXTURE.output, buildInlineFixture());
  process.stdout.write(`wrote ${INLINE_FIXTURE.output}\n`);
}
