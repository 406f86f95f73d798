/**
 * Cutting a transcript into loop runs: a user prompt up to the end of the loop it started.
 *
 * Invariants:
 * - A run starts at the first assistant line after one or more non-tool-result user lines (the prompt; slash
 *   command expansions and caveats included), or after an automatic continuation following a compaction.
 * - Inside a run, assistant lines sharing `message.id` form one model reply; tool_result lines are kept in their
 *   recorded order (they may arrive between blocks of the reply that asked for them: streaming execution).
 * - A run ends: `completed` when a reply without tool_use is followed by a new prompt or the end of the file;
 *   `aborted_tools` on "[Request interrupted by user for tool use]"; `aborted_streaming` on
 *   "[Request interrupted by user]"; `incomplete` when the file ends while tools or a reply were outstanding.
 * - Everything before a run (earlier runs included) is its history, in engine form.
 */
import type { AssistantMessage, Message, SystemMessage, UserMessage, Usage } from '../messages/types.ts';
import type { Transcript, TranscriptEntry } from './transcript.ts';

export const INTERRUPT_MARKER = '[Request interrupted by user]';
export const INTERRUPT_FOR_TOOL_USE_MARKER = '[Request interrupted by user for tool use]';

export interface RecordedReply {
  id: string;
  model: string;
  blocks: AssistantMessage[];
  /** The usage of the reply's last line (the final output count). */
  usage: Usage | undefined;
}

export type RunStep =
  | { kind: 'reply'; reply: RecordedReply }
  /** `afterBlock`: blocks of the open reply seen when the result arrived (streaming execution interleaves them). */
  | { kind: 'tool_result'; toolUseId: string; message: UserMessage; line: number; afterBlock: number }
  /** A user line after tool results inside a run (skill expansions, hook context, queued prompts). */
  | { kind: 'attachment'; message: UserMessage }
  /** An automatic compaction inside the run: boundary plus the summary lines after it. */
  | { kind: 'compact'; boundary: SystemMessage; summary: UserMessage[]; trigger: string; preTokens: number | null };

export type RecordedEnding = 'completed' | 'aborted_streaming' | 'aborted_tools' | 'incomplete';

export interface RecordedRun {
  /** 1-based, in file order. */
  index: number;
  /** Line of the run's first prompt line (or first reply). */
  startLine: number;
  history: Message[];
  prompt: UserMessage[];
  steps: RunStep[];
  ending: RecordedEnding;
  model: string;
  /** The Claude Code version that wrote the run (the transcript's `version` field), or null when none is recorded. */
  version: string | null;
}

function replyHasToolUse(reply: RecordedReply): boolean {
  return reply.blocks.some((m) => m.message.content.some((b) => b.type === 'tool_use'));
}

function lastReply(steps: readonly RunStep[]): RecordedReply | null {
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i];
    if (s.kind === 'reply') return s.reply;
  }
  return null;
}

/** The last reply asked for no tool and nothing came after it: the loop has completed. */
function runFinished(run: RecordedRun): boolean {
  const last = run.steps[run.steps.length - 1];
  return last?.kind === 'reply' && !replyHasToolUse(last.reply);
}

/** Every message a run put into the conversation, in order (for the history of later runs). */
export function runMessages(run: RecordedRun): Message[] {
  const out: Message[] = [...run.prompt];
  for (const s of run.steps) {
    if (s.kind === 'reply') out.push(...s.reply.blocks);
    else if (s.kind === 'tool_result' || s.kind === 'attachment') out.push(s.message);
    else out.push(s.boundary, ...s.summary);
  }
  return out;
}

/** Splits a transcript into runs. */
export function splitRuns(transcript: Transcript): RecordedRun[] {
  const runs: RecordedRun[] = [];
  let history: Message[] = [];
  let pendingPrompt: UserMessage[] = [];
  let pendingStart = 0;
  let run: RecordedRun | null = null;

  const close = (ending: RecordedEnding, marker?: UserMessage) => {
    if (!run) return;
    run.ending = ending;
    runs.push(run);
    history = [...history, ...runMessages(run), ...(marker ? [marker] : [])];
    run = null;
  };

  for (const entry of transcript.entries as TranscriptEntry[]) {
    if (entry.kind === 'assistant') {
      if (!run) {
        run = { index: runs.length + 1, startLine: pendingStart || entry.line, history, prompt: pendingPrompt, steps: [], ending: 'incomplete', model: entry.message.message.model, version: transcript.version };
        pendingPrompt = [];
        pendingStart = 0;
      }
      const last = run.steps[run.steps.length - 1];
      const open = lastReply(run.steps);
      const sameReply = open !== null && open.id === entry.message.message.id && (last?.kind === 'reply' || last?.kind === 'tool_result');
      if (sameReply) {
        open.blocks.push(entry.message);
        open.usage = entry.message.message.usage ?? open.usage;
      } else {
        run.steps.push({ kind: 'reply', reply: { id: entry.message.message.id, model: entry.message.message.model, blocks: [entry.message], usage: entry.message.message.usage } });
      }
      continue;
    }
    if (entry.kind === 'compact_boundary') {
      const finished = run !== null && runFinished(run);
      if (run && (entry.trigger === 'manual' || finished)) close('completed');
      if (run) run.steps.push({ kind: 'compact', boundary: entry.message, summary: [], trigger: entry.trigger, preTokens: entry.preTokens });
      else {
        history = [...history, ...pendingPrompt, entry.message];
        pendingPrompt = [];
      }
      continue;
    }
    // user line
    const last = run?.steps[run.steps.length - 1];
    if (entry.toolUseIds.length > 0) {
      if (!run) {
        pendingPrompt.push(entry.message);
        continue;
      }
      const blocks = Array.isArray(entry.message.message.content) ? entry.message.message.content : [];
      for (const block of blocks) {
        if (block.type !== 'tool_result') continue;
        const message: UserMessage = { ...entry.message, uuid: blocks.length > 1 ? `${entry.message.uuid}:${block.tool_use_id}` : entry.message.uuid, message: { role: 'user', content: [block] }, sourceToolUseId: block.tool_use_id };
        run.steps.push({ kind: 'tool_result', toolUseId: block.tool_use_id, message, line: entry.line, afterBlock: lastReply(run.steps)?.blocks.length ?? 0 });
      }
      continue;
    }
    if (run && entry.text.startsWith(INTERRUPT_FOR_TOOL_USE_MARKER)) {
      close('aborted_tools', entry.message);
      continue;
    }
    if (run && entry.text.startsWith(INTERRUPT_MARKER)) {
      close('aborted_streaming', entry.message);
      continue;
    }
    if (run && last?.kind === 'compact') {
      last.summary.push(entry.message);
      continue;
    }
    if (run) {
      const open = lastReply(run.steps);
      if (open && replyHasToolUse(open) && (last?.kind === 'tool_result' || last?.kind === 'attachment')) {
        run.steps.push({ kind: 'attachment', message: entry.message });
        continue;
      }
      close('completed');
    }
    if (pendingPrompt.length === 0) pendingStart = entry.line;
    pendingPrompt.push(entry.message);
  }
  if (run) close(runFinished(run) ? 'completed' : 'incomplete');
  return runs;
}
