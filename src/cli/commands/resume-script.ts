/**
 * `resume --fake-api`: where the script continues. A log recorded from a script has consumed its first replies and
 * tool results; resuming serves the ones after them, so the run goes on as the script goes on (and does not get
 * reply 1 again). The script must begin with the replies the log holds: any other script is refused with one line
 * naming the first reply that differs, unless `--script-from-start` says the script holds only what comes next.
 * A logged tool result used up a scripted one unless it is an error result in the runtime's own words (a call
 * cancelled with a failed sibling or an abort before it started, bad input, a denial): that call never ran its tool.
 */
import { UsageError } from '../cli-io.ts';
import type { LoopEvent } from '../../data/events.ts';
import type { FakeScriptInput } from '../../fake-api/index.ts';
import type { ScriptedTool } from '../../replay/scripted-deps.ts';

type Answer = NonNullable<FakeScriptInput['model']>[number];
type Block = { type: string; id?: string; text?: string; name?: string; input?: unknown };
type LoggedResult = { content: string; isError: boolean };

export interface ResumeScript {
  model: Answer[];
  compactionModel?: FakeScriptInput['compactionModel'];
  tools: ScriptedTool[];
}

/** A logged tool_result's content as the script writes it (a string; text blocks joined). */
function loggedResult(event: Extract<LoopEvent, { type: 'tool_result' }>): LoggedResult {
  const content = event.message.message.content;
  const block = (Array.isArray(content) ? content.find((b) => b.type === 'tool_result') : undefined) as { content?: unknown; is_error?: boolean } | undefined;
  const inner = block?.content;
  const text = typeof inner === 'string' ? inner : Array.isArray(inner) ? inner.map((b: { text?: string }) => b.text ?? '').join('') : '';
  return { content: text, isError: block?.is_error === true };
}

/** The log's completed main-loop replies (the blocks of each, in order) and each tool's logged results, in order. */
function loggedRun(events: readonly LoopEvent[]): { replies: Block[][]; errors: number; toolResults: Map<string, LoggedResult[]>; compactions: number } {
  const replies: Block[][] = [];
  const toolNames = new Map<string, string>();
  const toolResults = new Map<string, LoggedResult[]>();
  let current: Block[] = [];
  let errors = 0;
  let compactions = 0;
  for (const event of events) {
    if (event.type === 'model_message') {
      for (const block of event.message.message.content as Block[]) {
        current.push(block);
        if (block.type === 'tool_use') toolNames.set(block.id ?? '', block.name ?? '');
      }
    } else if (event.type === 'model_done') {
      replies.push(current);
      current = [];
    } else if (event.type === 'model_error' || event.type === 'model_overloaded' || event.type === 'model_stream_fallback') {
      errors += 1;
      current = [];
    } else if (event.type === 'tool_result') {
      const name = toolNames.get(event.toolUseId);
      if (name !== undefined) toolResults.set(name, (toolResults.get(name) ?? []).concat(loggedResult(event)));
    } else if (event.type === 'autocompact_result' || event.type === 'reactive_compact_result') {
      compactions += 1;
    }
  }
  return { replies, errors, toolResults, compactions };
}

/** One entry per answer: `repeat: n` written out n times (and dropped, so that nothing repeats it again). */
function expand<T extends { repeat?: number }>(items: readonly T[]): Array<Omit<T, 'repeat'>> {
  return items.flatMap(({ repeat = 1, ...item }) => Array.from({ length: repeat }, () => item));
}

/** What a reply says, for comparing a script's reply with the logged one: text, and each tool call's name and input. */
function gist(blocks: readonly Block[]): string {
  return JSON.stringify(blocks.map((b) => (b.type === 'text' ? ['text', b.text] : b.type === 'tool_use' ? ['tool_use', b.name, b.input] : [b.type])));
}

function describeReply(blocks: readonly Block[]): string {
  const text = blocks.map((b) => (b.type === 'text' ? JSON.stringify((b.text ?? '').slice(0, 40)) : b.type === 'tool_use' ? `tool_use ${b.name}` : b.type)).join(', ');
  return text === '' ? '(no content)' : text;
}

/**
 * How many of a tool's scripted `results` the logged ones used up. A result that is not an error came from the tool,
 * so it took one. An error took one only when it is the scripted one (its content, or the message of a scripted
 * `throw`): otherwise it is the runtime's own words for a call that never ran its tool (cancelled by a failed
 * sibling or an abort before it started, bad input, a denial), which took none. Not told apart: a slow scripted
 * call (`delayMs`) cancelled after it started, which took its result in the recorded run; resume serves that
 * result again, to the next call.
 */
function resultsUsed(results: ReadonlyArray<ScriptedTool['results'][number] & { throw?: string }>, logged: readonly LoggedResult[]): number {
  let used = 0;
  for (const result of logged) {
    const next = results[used];
    if (next === undefined) break;
    const isScripted = !result.isError || result.content === next.content || (next.throw !== undefined && result.content.includes(next.throw));
    if (isScripted) used += 1;
  }
  return used;
}

/**
 * The part of `script` that comes after the log's `events`; throws a `UsageError` (exit 2) when the script does not
 * begin with the log's replies, or when where it continues cannot be known (the log holds API errors or compactions).
 */
export function continueScriptAfterLog(script: ResumeScript, events: readonly LoopEvent[], file: string): ResumeScript {
  const logged = loggedRun(events);
  const refuse = (why: string) =>
    new UsageError(`--fake-api: ${file}: ${why}; resume serves a script from where the log ended (pass --script-from-start for a script of only the replies that come next)`);
  if (logged.errors > 0) throw refuse(`the log holds ${logged.errors} failed model request(s), so which scripted answers it used cannot be known`);
  if (logged.compactions > 0 && script.compactionModel !== undefined) throw refuse('the log holds compactions, so which compactionModel replies it used cannot be known');
  const model = expand(script.model as Array<Answer & { repeat?: number }>) as Answer[];
  if (model.length < logged.replies.length) throw refuse(`it has ${model.length} model replies and the log already holds ${logged.replies.length}`);
  logged.replies.forEach((blocks, index) => {
    const answer = model[index] as { content?: Block[] };
    if (answer.content === undefined || gist(answer.content) !== gist(blocks)) {
      throw refuse(`its model reply ${index + 1} (${answer.content ? describeReply(answer.content) : 'an error or raw SSE answer'}) is not the log's reply ${index + 1} (${describeReply(blocks)})`);
    }
  });
  const tools = script.tools.map((tool) => {
    const results = expand(tool.results as Array<ScriptedTool['results'][number] & { repeat?: number }>);
    return { ...tool, results: results.slice(resultsUsed(results, logged.toolResults.get(tool.name) ?? [])) };
  });
  return { ...script, model: model.slice(logged.replies.length), tools };
}
