/**
 * A recorded run as a `turnloop simulate` scenario (the format of `src/scenario/scenario-schema.ts`, so
 * `simulate` loads what `import-claude` writes): history and prompt as Anthropic message params, the recorded
 * replies as the fake API's model script, the recorded tool results as tool scripts, the recorded compaction
 * summaries as the compaction model's answers, the interrupt as a scenario `abort`, the recorded ending as `expect`.
 *
 * Invariants:
 * - The converter only reshapes recorded data (nothing invented, no CLI code involved). A tool's results are
 *   listed in the order of its tool_use blocks, which is the order the engine calls it in (scripted tools are not
 *   concurrency-safe, so they run one at a time, in tool_use order) even when Claude Code recorded them out of
 *   order; a tool_use without a recorded result gets none (the tool then answers "(no scripted result left)").
 * - An interrupt while the model streamed becomes `abort {during: 'sampling', atModelCall: n}` where n is the
 *   interrupted call (the engine's `call_model` is aborted as it starts: a partly streamed reply is not served);
 *   an interrupt for tool use becomes `abort {during: 'tools', atModelCall: n}` after the reply that asked.
 * - A run the transcript leaves unfinished expects the script to run out on its next call: the fake API then
 *   answers 500 until the adapter gives up with an API-error message, so the run ends `completed` with
 *   `apiError: 'other'` and `scriptExhausted` (docs/loop.md §4.5); the simulation has no recorded answer there either.
 * - A compaction agent's run (`querySource: 'compact'`) is scripted in `compactionModel`, where the fake API
 *   routes its requests.
 * - Subagents: given an `agents` section (`agent-scenarios.ts`), the agent tools it names get no tool script;
 *   each of their calls is a child run scripted by its subagent's recorded run (`agentRunScript`).
 * - Not carried over: user lines Claude Code attached after tool results (skill expansions, hook context; simulate
 *   has no attachment script). They change what the model reads, not the number of calls or the ending.
 * - A recorded automatic compaction the engine cannot reach from the recorded lines alone, short of its threshold
 *   only by the context the transcript does not record (`unrecorded-context.ts`), is not expected: the scenario
 *   expects what the engine does with the recorded data, its compaction answer is left out, and its description
 *   says so with the numbers.
 */
import { basename } from 'node:path';
import type { ScenarioExpect, ScenarioInput } from '../scenario/scenario-schema.ts';
import type { AssistantContentBlock, UserMessage } from '../messages/types.ts';
import { assistantParamBlock, toMessageParams, toolResultContent } from './message-params.ts';
import { recordedOutcome, type RecordedOutcome } from './recorded-outcome.ts';
import type { RecordedRun, RunStep } from './runs.ts';
import { checkConfig, driveRun } from './drive-run.ts';
import { contextThresholds } from '../rules/thresholds.ts';
import { describeMissedCompaction, explainMissedCompactions, type MissedCompaction } from './unrecorded-context.ts';
import { configForVersion, constantsForVersion } from './version-constants.ts';

/** An imported scenario: the input format of `turnloop simulate`. */
export type ClaudeScenario = ScenarioInput;

type ToolResultStep = Extract<RunStep, { kind: 'tool_result' }>;
type ToolScript = { name: string; results: Array<{ content: ReturnType<typeof toolResultContent>; isError: boolean }> };

const PROMPT_EXCERPT_CHARS = 120;

function textOf(messages: readonly UserMessage[]): string {
  const texts = messages.map((m) => {
    const content = m.message.content;
    return typeof content === 'string' ? content : content.map((b) => (b.type === 'text' ? b.text : '')).join('');
  });
  return texts.join('\n').trim();
}

function isToolUse(block: AssistantContentBlock): block is Extract<AssistantContentBlock, { type: 'tool_use' }> {
  return block.type === 'tool_use';
}

/** The model script: one fake API reply per recorded reply, with its recorded id, model and usage. */
function modelScript(run: RecordedRun) {
  return run.steps.flatMap((step) => {
    if (step.kind !== 'reply') return [];
    const content = step.reply.blocks.flatMap((m) => m.message.content).map(assistantParamBlock);
    const usage = step.reply.usage;
    return [{ id: step.reply.id, model: step.reply.model, content, stop_reason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn', ...(usage ? { usage } : {}) }];
  });
}

/** Tool scripts: per tool name, the recorded results in the order of the tool_use blocks they answer. */
function toolScripts(run: RecordedRun, except: ReadonlySet<string> = new Set()): ToolScript[] {
  const results = new Map<string, ToolResultStep>();
  for (const step of run.steps) if (step.kind === 'tool_result') results.set(step.toolUseId, step);
  const tools = new Map<string, ToolScript>();
  for (const step of run.steps) {
    if (step.kind !== 'reply') continue;
    for (const use of step.reply.blocks.flatMap((m) => m.message.content).filter(isToolUse)) {
      if (except.has(use.name)) continue;
      const tool = tools.get(use.name) ?? { name: use.name, results: [] };
      tools.set(use.name, tool);
      const block = results.get(use.id)?.message.message.content[0];
      if (block && typeof block !== 'string' && block.type === 'tool_result') {
        tool.results.push({ content: toolResultContent(block.content), isError: block.is_error === true });
      }
    }
  }
  return [...tools.values()];
}

/** The compaction model's answers: the summary Claude Code wrote at each automatic compaction. */
function compactionAnswers(run: RecordedRun, skipped: ReadonlySet<number>) {
  let replies = 0;
  return run.steps.flatMap((step) => {
    if (step.kind === 'reply') replies += 1;
    if (step.kind !== 'compact' || step.trigger === 'manual' || skipped.has(replies + 1)) return [];
    return [{ content: [{ type: 'text' as const, text: textOf(step.summary) || 'Conversation compacted.' }] }];
  });
}

/** The thresholds of the release that wrote the run, as scenario config (none for the reference's). */
function versionThresholds(run: RecordedRun): { thresholds?: Record<string, number | boolean> } {
  const { row } = constantsForVersion(run.version);
  return row && Object.keys(row.thresholds).length > 0 ? { thresholds: { ...row.thresholds } } : {};
}

function constantsNote(run: RecordedRun): string {
  const choice = constantsForVersion(run.version);
  return choice.row ? ` Context constants of Claude Code ${choice.version}: ${choice.row.rule}.` : ` ${choice.assumed}.`;
}

/** The recorded automatic compactions the engine misses only by the transcript's unrecorded context. */
function unreachableCompactions(run: RecordedRun, outcome: RecordedOutcome, querySource: string): MissedCompaction[] {
  if (outcome.autocompactBeforeCalls.length === 0) return [];
  const config = configForVersion(checkConfig(run), run.version);
  const driven = driveRun(run, { querySource, config });
  return explainMissedCompactions(run, driven.missedCompactions, driven.callTokens, contextThresholds(run.model, config).autocompact).filter((m) => m.explained);
}

/**
 * Scripted-tool calls the simulation must make: every tool_use of the replies it serves (agent tools, which start
 * child runs instead, apart), unless tools are interrupted.
 */
function expectedToolCalls(run: RecordedRun, outcome: RecordedOutcome, agentNames: ReadonlySet<string>): number | undefined {
  if (outcome.interrupt?.during === 'tools') return undefined; // how far the interrupted batch got is a timing matter
  const served = outcome.interrupt ? outcome.interrupt.atModelCall - 1 : outcome.replies;
  const replies = run.steps.flatMap((s) => (s.kind === 'reply' ? [s.reply] : [])).slice(0, served);
  return replies.reduce((n, reply) => n + reply.blocks.flatMap((m) => m.message.content).filter((b) => isToolUse(b) && !agentNames.has(b.name)).length, 0);
}

function expectOf(run: RecordedRun, outcome: RecordedOutcome, agentNames: ReadonlySet<string> = new Set()): ScenarioExpect {
  const toolCalls = expectedToolCalls(run, outcome, agentNames);
  return {
    // Nothing ended a run the transcript stops in: the simulation's script runs out there instead.
    terminal: outcome.terminal ?? 'completed',
    ...(outcome.terminal === null ? { apiError: 'other' as const } : {}),
    // Every reply but the last asked for tools (a reply without tool_use ends the run): each call after the first is a next_turn.
    transitions: Array.from({ length: Math.max(0, outcome.modelCalls - 1) }, () => 'next_turn' as const),
    modelCalls: outcome.modelCalls,
    ...(toolCalls === undefined ? {} : { toolCalls }),
    ...(outcome.terminal === null ? { scriptExhausted: true } : {}),
    autocompactBeforeCalls: outcome.autocompactBeforeCalls,
  };
}

function descriptionOf(run: RecordedRun, outcome: RecordedOutcome, file: string): string {
  const prompt = textOf(run.prompt);
  const excerpt = prompt.length > PROMPT_EXCERPT_CHARS ? `${prompt.slice(0, PROMPT_EXCERPT_CHARS)}…` : prompt;
  const ending = outcome.terminal === null ? 'the transcript stops mid-run' : `ended ${outcome.terminal}`;
  return `Imported from ${file}, run ${run.index} (line ${run.startLine}): ${outcome.modelCalls} model call(s), ${ending}. Prompt: ${excerpt || '(continuation)'}`;
}

/** A scenario's agent section (`agents`). */
export type ScenarioAgentsInput = NonNullable<ScenarioInput['agents']>;
type AgentRunInput = NonNullable<ScenarioAgentsInput[number]['runs']>[number];

/**
 * A subagent's recorded run as one invocation of the scenario's agent tool (`agents[].runs[i]`), named by the
 * parent's tool_use id: its replies, its tools' recorded results, its recorded ending as `expect`. Only for a run
 * the section can script: no interrupt (a child has no abort script) and no compaction (nor compaction model).
 */
export function agentRunScript(run: RecordedRun, toolUseId: string): AgentRunInput {
  const { autocompactBeforeCalls: _none, ...expect } = expectOf(run, recordedOutcome(run));
  return { toolUseId, model: modelScript(run), tools: toolScripts(run), expect };
}

/**
 * Converts one run. `querySource` is `repl_main_thread` for a session, `agent:<id>` for a subagent file,
 * `compact` for a compaction agent. `agents`: the run's agent tools scripted by their subagents' recordings
 * (`agent-scenarios.ts`); those tools then get no tool script, and the child runs are expected (`agentRuns`).
 *
 * @example
 * const scenario = runToScenario(splitRuns(readTranscript('short.jsonl'))[0], 'short.jsonl');
 * scenario.abort // { during: 'tools', atModelCall: 1, reason: 'user' }
 */
export function runToScenario(run: RecordedRun, file: string, querySource = 'repl_main_thread', agents: ScenarioAgentsInput = []): ScenarioInput {
  const recorded = recordedOutcome(run);
  const unreachable = unreachableCompactions(run, recorded, querySource);
  const skipped = new Set(unreachable.map((m) => m.call));
  const outcome = { ...recorded, autocompactBeforeCalls: recorded.autocompactBeforeCalls.filter((call) => !skipped.has(call)) };
  const agentNames = new Set(agents.map((a) => a.name));
  const agentRuns = agents.reduce((n, a) => n + (a.runs?.length ?? 0), 0);
  // The fake API serves requests sent with querySource `compact` from `compactionModel`: a compaction agent's
  // own replies go there (such a run never autocompacts itself).
  const replies = modelScript(run);
  const compactionAgent = querySource === 'compact';
  const compactions = compactionAgent ? replies : compactionAnswers(run, skipped);
  const notes = unreachable.map((m) => ` Not expected: ${describeMissedCompaction(m)}.`).join('') + constantsNote(run);
  return {
    name: `${basename(file, '.jsonl')} run ${run.index}`,
    description: descriptionOf(run, outcome, file) + notes,
    source: { file, run: run.index, startLine: run.startLine },
    config: { sessionId: `claude-import-run${run.index}`, model: run.model, ...versionThresholds(run) },
    params: { messages: toMessageParams([...run.history, ...run.prompt]), querySource },
    model: compactionAgent ? [] : replies,
    ...(compactions.length > 0 ? { compactionModel: compactions } : {}),
    tools: toolScripts(run, agentNames),
    ...(agents.length > 0 ? { agents } : {}),
    ...(outcome.interrupt ? { abort: { ...outcome.interrupt, reason: 'user' as const } } : {}),
    expect: { ...expectOf(run, outcome, agentNames), ...(agents.length > 0 ? { agentRuns } : {}) },
  };
}

/** All runs of a transcript with their file names (`run-001.json`, …). */
export function scenariosOf(runs: readonly RecordedRun[], file: string, querySource?: string): Array<{ fileName: string; scenario: ScenarioInput }> {
  return runs.map((run) => ({ fileName: `run-${String(run.index).padStart(3, '0')}.json`, scenario: runToScenario(run, file, querySource) }));
}
