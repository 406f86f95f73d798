/**
 * A recorded run as a `turnloop simulate` scenario: the history and prompt as `params.messages`, the recorded
 * replies as the model script, the recorded tool results (per tool name, in call order) as tool scripts.
 *
 * Invariants: the converter only reshapes recorded data (nothing invented, no CLI code involved); tool_result
 * content that is a list of blocks becomes the concatenation of its text parts (images are noted, not kept);
 * the expected outcome of the recording is carried in `expect` so a simulation can be compared with it.
 */
import type { AssistantContentBlock, Usage } from '../../messages/types.ts';
import type { RecordedRun } from './runs.ts';

export interface ClaudeScenario {
  name: string;
  description: string;
  source: { file: string; run: number; startLine: number };
  config: { sessionId: string; model: string };
  params: { messages: unknown[]; querySource: string };
  model: Array<{ id: string; model: string; content: AssistantContentBlock[]; stop_reason: string; usage?: Usage }>;
  tools: Array<{ name: string; results: Array<{ content: string; isError: boolean }> }>;
  /** How the recorded run ended and where Claude Code compacted (model call numbers, 1-based). */
  expect: { ending: RecordedRun['ending']; modelCalls: number; autocompactBeforeCalls: number[] };
  /** Where the user interrupted: `after_model_calls` = abort after that many replies (while tools run or the next call streams). */
  abort?: { during: 'tools' | 'streaming'; afterModelCalls: number };
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b: { type?: string; text?: string }) => (b.type === 'text' ? (b.text ?? '') : `[${b.type ?? 'block'} omitted]`)).join('\n');
}

/** Converts one run. `querySource` is `repl_main_thread` for a session, `agent:<id>` for a subagent file. */
export function runToScenario(run: RecordedRun, file: string, querySource = 'repl_main_thread'): ClaudeScenario {
  const toolNames = new Map<string, string>();
  const model: ClaudeScenario['model'] = [];
  const tools = new Map<string, ClaudeScenario['tools'][number]>();
  const compactions: number[] = [];
  for (const step of run.steps) {
    if (step.kind === 'reply') {
      const content = step.reply.blocks.flatMap((m) => m.message.content);
      for (const block of content) if (block.type === 'tool_use') toolNames.set(block.id, block.name);
      const hasToolUse = content.some((b) => b.type === 'tool_use');
      model.push({ id: step.reply.id, model: step.reply.model, content, stop_reason: hasToolUse ? 'tool_use' : 'end_turn', ...(step.reply.usage ? { usage: step.reply.usage } : {}) });
    } else if (step.kind === 'tool_result') {
      const name = toolNames.get(step.toolUseId) ?? 'unknown';
      const block = Array.isArray(step.message.message.content) ? step.message.message.content[0] : undefined;
      const entry = tools.get(name) ?? { name, results: [] };
      entry.results.push({ content: resultText(block && 'content' in block ? block.content : ''), isError: block?.type === 'tool_result' && block.is_error === true });
      tools.set(name, entry);
    } else if (step.kind === 'compact' && step.trigger !== 'manual') {
      compactions.push(model.length + 1);
    }
  }
  const prompt = run.prompt.map((m) => (typeof m.message.content === 'string' ? m.message.content : resultText(m.message.content))).join('\n').trim();
  const last = run.steps[run.steps.length - 1];
  const extraCall = (run.ending === 'aborted_streaming' || run.ending === 'incomplete') && last?.kind !== 'reply' ? 1 : 0;
  const scenario: ClaudeScenario = {
    name: `run-${run.index}`,
    description: prompt.length > 0 ? prompt.slice(0, 120) : '(continuation)',
    source: { file, run: run.index, startLine: run.startLine },
    config: { sessionId: `claude-import-run${run.index}`, model: run.model },
    params: { messages: [...run.history, ...run.prompt], querySource },
    model,
    tools: [...tools.values()],
    expect: { ending: run.ending, modelCalls: model.length + extraCall, autocompactBeforeCalls: compactions },
  };
  if (run.ending === 'aborted_tools') scenario.abort = { during: 'tools', afterModelCalls: model.length };
  if (run.ending === 'aborted_streaming') scenario.abort = { during: 'streaming', afterModelCalls: model.length };
  return scenario;
}

/** All runs of a transcript with their file names (`run-001.json`, …). */
export function scenariosOf(runs: readonly RecordedRun[], file: string, querySource?: string): Array<{ fileName: string; scenario: ClaudeScenario }> {
  return runs.map((run) => ({ fileName: `run-${String(run.index).padStart(3, '0')}.json`, scenario: runToScenario(run, file, querySource) }));
}

