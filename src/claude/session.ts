/**
 * A Claude Code session as a tree: the main thread, the subagent transcripts (2.x `subagents/agent-*.jsonl` files
 * and 1.0.x inline sidechains alike) and the link from each subagent to the Task tool_use it ran for.
 *
 * Invariants:
 * - Links come only from what the transcripts record, never from timing or position: the `agentId` a subagent's
 *   lines carry (2.x file name or line field) matched with the parent's `toolUseResult.agentId` or its
 *   `agent_progress` lines; failing that, the subagent's first prompt equal to the `prompt` input of exactly one
 *   Task tool_use not linked yet (1.0.x records nothing else). Several candidates, or none: no link, and why.
 * - Every Task tool_use of the main thread without a subagent transcript is reported `notCheckable` with what the
 *   session does record of it (progress lines only, or nothing); none is dropped silently.
 * - Compaction agents (`agent-acompact-*`) are children with querySource `compact` and no Task tool_use.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { splitThreads } from './sidechains.ts';
import { parseTranscriptLines, transcriptOf, type Json, type Transcript, type TranscriptLine } from './transcript.ts';

/** The tool names Claude Code has given its subagent tool. */
export const AGENT_TOOL_NAMES: readonly string[] = ['Task', 'Agent'];

export interface AgentCall {
  toolUseId: string;
  /** The tool's name as recorded (`Task`). */
  name: string;
  prompt: string;
  line: number;
  /** The subagent id the parent recorded for it (tool result's `toolUseResult.agentId`, `agent_progress` lines). */
  agentId: string | null;
  /** `agent_progress` lines the parent recorded for it. */
  progressLines: number;
}

export interface ChildTranscript {
  /** The subagent file, or the session file for an inline sidechain. */
  file: string;
  format: 'subagent-file' | 'inline-sidechain';
  /** File line where an inline sidechain starts (1 for a subagent file). */
  startLine: number;
  transcript: Transcript;
  agentId: string | null;
  /** `agent:<id>`, or `compact` for a compaction agent. */
  querySource: string;
  /** The parent's Task tool_use this subagent ran for; null when the session does not record it. */
  toolUseId: string | null;
  /** Why no link was made (absent when linked, and for compaction agents). */
  unlinked?: string;
}

export interface NotCheckable {
  toolUseId: string;
  agentId: string | null;
  reason: string;
}

export interface ClaudeSession {
  file: string;
  main: Transcript;
  agentCalls: AgentCall[];
  children: ChildTranscript[];
  notCheckable: NotCheckable[];
}

/** The subagent transcripts of a 2.x session file (`<session>/subagents/*.jsonl`), compaction agents included. */
export function subagentFiles(sessionFile: string): string[] {
  const dir = join(dirname(sessionFile), basename(sessionFile, '.jsonl'), 'subagents');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .map((name) => join(dir, name));
}

const isCompactionAgent = (agentId: string | null) => agentId !== null && agentId.startsWith('acompact');

/** The Task tool_uses of the main thread and what its lines record about each subagent. */
function agentCallsOf(main: readonly TranscriptLine[]): AgentCall[] {
  const calls = new Map<string, AgentCall>();
  const agentIds = new Map<string, string>();
  const progress = new Map<string, number>();
  for (const { line, json } of main) {
    const message = (json.message ?? {}) as Json;
    const content = Array.isArray(message.content) ? (message.content as Json[]) : [];
    if (json.type === 'assistant') {
      for (const b of content) {
        if (b.type !== 'tool_use' || !AGENT_TOOL_NAMES.includes(String(b.name))) continue;
        const input = (b.input ?? {}) as Json;
        calls.set(String(b.id), { toolUseId: String(b.id), name: String(b.name), prompt: String(input.prompt ?? ''), line, agentId: null, progressLines: 0 });
      }
    } else if (json.type === 'user') {
      const result = (json.toolUseResult ?? {}) as Json;
      const answered = content.find((b) => b.type === 'tool_result');
      if (answered && typeof result === 'object' && typeof result.agentId === 'string') agentIds.set(String(answered.tool_use_id), result.agentId);
    } else if (json.type === 'progress') {
      const data = (json.data ?? {}) as Json;
      if (data.type !== 'agent_progress' || typeof json.parentToolUseID !== 'string') continue;
      progress.set(json.parentToolUseID, (progress.get(json.parentToolUseID) ?? 0) + 1);
      if (typeof data.agentId === 'string' && !agentIds.has(json.parentToolUseID)) agentIds.set(json.parentToolUseID, data.agentId);
    }
  }
  return [...calls.values()].map((c) => ({ ...c, agentId: agentIds.get(c.toolUseId) ?? null, progressLines: progress.get(c.toolUseId) ?? 0 }));
}

function firstPrompt(transcript: Transcript): string | null {
  const first = transcript.entries.find((e) => e.kind === 'user');
  return first?.kind === 'user' ? first.text : null;
}

/** Links each child to its Task tool_use (by agent id, else by a unique prompt), in place. */
function link(children: ChildTranscript[], calls: readonly AgentCall[]): void {
  const taken = new Set<string>();
  const byAgentId = (child: ChildTranscript) => calls.find((c) => child.agentId !== null && c.agentId === child.agentId && !taken.has(c.toolUseId));
  // Agent ids first, so a prompt match never takes a call an id names.
  for (const child of children) {
    const call = byAgentId(child);
    if (call) {
      child.toolUseId = call.toolUseId;
      taken.add(call.toolUseId);
    }
  }
  for (const child of children) {
    if (child.toolUseId !== null || child.querySource === 'compact') continue;
    const prompt = firstPrompt(child.transcript);
    // A call whose recorded agent id names another subagent is not a candidate.
    const candidates = calls.filter((c) => !taken.has(c.toolUseId) && c.prompt === prompt && (c.agentId === null || c.agentId === child.agentId));
    if (candidates.length === 1) {
      child.toolUseId = candidates[0].toolUseId;
      taken.add(candidates[0].toolUseId);
    } else {
      child.unlinked = candidates.length === 0 ? 'no Task tool_use of the main thread has its agent id or its first prompt' : `${candidates.length} Task tool_uses (${candidates.map((c) => c.toolUseId).join(', ')}) have its first prompt`;
    }
  }
  for (const child of children) if (child.toolUseId && child.agentId === null) child.querySource = `agent:${child.toolUseId}`;
}

function notCheckableOf(calls: readonly AgentCall[], children: readonly ChildTranscript[]): NotCheckable[] {
  const linked = new Set(children.map((c) => c.toolUseId));
  return calls
    .filter((c) => !linked.has(c.toolUseId))
    .map((c) => ({
      toolUseId: c.toolUseId,
      agentId: c.agentId,
      reason:
        c.progressLines > 0
          ? `the subagent${c.agentId ? ` ${c.agentId}` : ''} exists only as ${c.progressLines} progress line(s) (agent_progress) of the parent: no transcript of its own`
          : 'no transcript of the subagent in the session (no subagents/ file, no inline sidechain)',
    }));
}

/**
 * The text of the parent's recorded result for Task `toolUseId` (null: none recorded), without the trailer 2.x
 * appends for resuming ("agentId: … (for resuming …)"): what the subagent's final answer must equal.
 */
export function recordedAgentResult(main: Transcript, toolUseId: string): string | null {
  for (const entry of main.entries) {
    if (entry.kind !== 'user' || !entry.toolUseIds.includes(toolUseId) || typeof entry.message.message.content === 'string') continue;
    const block = entry.message.message.content.find((b) => b.type === 'tool_result' && b.tool_use_id === toolUseId);
    if (!block || block.type !== 'tool_result') continue;
    if (typeof block.content === 'string') return block.content;
    const texts = (block.content ?? []).flatMap((b) => (b.type === 'text' && !b.text.startsWith('agentId: ') ? [b.text] : []));
    return texts.join('\n');
  }
  return null;
}

function agentIdOfFile(file: string): string | null {
  const name = basename(file, '.jsonl');
  return name.startsWith('agent-') ? name.slice('agent-'.length) : null;
}

function querySourceFor(agentId: string | null, fallbackId: string): string {
  return isCompactionAgent(agentId) ? 'compact' : `agent:${agentId ?? fallbackId}`;
}

/** Reads a session file as a tree: its main thread, inline sidechains, subagent files (unless `subagents: false`). */
export function readClaudeSession(file: string, options: { subagents?: boolean } = {}): ClaudeSession {
  const threads = splitThreads(parseTranscriptLines(readFileSync(file, 'utf8'), file), file);
  const main = transcriptOf(threads.main, file);
  const agentCalls = agentCallsOf(threads.main);
  if (options.subagents === false) return { file, main, agentCalls, children: [], notCheckable: [] };
  const children: ChildTranscript[] = threads.sidechains.map((s) => ({
    file,
    format: 'inline-sidechain',
    startLine: s.startLine,
    transcript: transcriptOf(s.lines, file),
    agentId: s.agentId,
    querySource: querySourceFor(s.agentId, s.rootUuid),
    toolUseId: null,
  }));
  for (const path of subagentFiles(file)) {
    const agentId = agentIdOfFile(path);
    const transcript = transcriptOf(parseTranscriptLines(readFileSync(path, 'utf8'), path), path);
    children.push({ file: path, format: 'subagent-file', startLine: 1, transcript, agentId, querySource: querySourceFor(agentId, basename(path, '.jsonl')), toolUseId: null });
  }
  link(children, agentCalls);
  return { file, main, agentCalls, children, notCheckable: notCheckableOf(agentCalls, children) };
}
