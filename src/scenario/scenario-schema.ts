/**
 * The scenario file of `turnloop simulate`: one loop run against a scripted environment (model answers, tool
 * results, stop hooks, compaction outcomes, an abort), plus the outcome it is expected to reach.
 *
 * Invariants:
 * - Every object is strict: an unknown key is an error naming its path, never silently ignored.
 * - No transforms except the fake API's answer dispatch, so the JSON Schema in `docs/scenarios.md` is generated
 *   from this file (`scenario-json-schema.ts`) and says exactly what is accepted.
 * - Parsing applies defaults only; turning the file into `query()` options is `simulate.ts`'s job.
 */
import { z } from 'zod';
import { fakeAnswerListSchema, MAX_SCRIPTED_ANSWERS } from '../fake-api/index.ts';
import { CONTINUE_REASONS, TERMINAL_REASONS } from '../data/outcomes.ts';
import { API_ERROR_KINDS } from '../messages/types.ts';
import { configOverridesSchema } from '../config/config-overrides-schema.ts';

const count = z.number().int().nonnegative();
const cacheControl = z.unknown().optional().describe('Accepted and ignored.');

const mediaSource = z.union([
  z.strictObject({ type: z.literal('base64'), media_type: z.string(), data: z.string() }),
  z.strictObject({ type: z.literal('url'), url: z.string() }),
  z.strictObject({ type: z.literal('text'), media_type: z.string(), data: z.string() }),
]);

const textBlock = z.strictObject({ type: z.literal('text'), text: z.string(), cache_control: cacheControl });
const imageBlock = z.strictObject({ type: z.literal('image'), source: mediaSource, cache_control: cacheControl });
const documentBlock = z.strictObject({ type: z.literal('document'), source: mediaSource, cache_control: cacheControl });

/** Content blocks of Anthropic message params (`MessageParam.content`). */
export const contentBlockSchema = z.discriminatedUnion('type', [
  textBlock,
  imageBlock,
  documentBlock,
  z.strictObject({ type: z.literal('tool_use'), id: z.string().min(1), name: z.string().min(1), input: z.record(z.string(), z.unknown()), cache_control: cacheControl }),
  z.strictObject({
    type: z.literal('tool_result'),
    tool_use_id: z.string().min(1),
    content: z.union([z.string(), z.array(z.discriminatedUnion('type', [textBlock, imageBlock, documentBlock]))]).optional(),
    is_error: z.boolean().optional(),
    cache_control: cacheControl,
  }),
  z.strictObject({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }),
  z.strictObject({ type: z.literal('redacted_thinking'), data: z.string() }),
]);

export const messageParamSchema = z.strictObject({
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string(), z.array(contentBlockSchema)]),
});

export const paramsSchema = z
  .strictObject({
    messages: z.array(messageParamSchema).default([]).describe('Anthropic message params: the conversation so far.'),
    prompt: z.string().optional().describe('Shorthand: one more user message appended to `messages`.'),
    system: z.union([z.string(), z.array(z.string())]).optional().describe('The system prompt.'),
    maxTurns: count.positive().optional(),
    fallbackModel: z.string().min(1).optional(),
    tokenBudget: count.optional().describe('Output tokens to reach before stopping (auto-continue, docs/loop.md §8).'),
    taskBudget: z.strictObject({ total: count.positive() }).optional().describe('API-side task budget.'),
    querySource: z.string().min(1).optional().describe("e.g. 'sdk' (default), 'repl_main_thread', 'agent:<id>', 'compact'."),
    maxOutputTokensOverride: count.positive().optional(),
    thinking: z
      .discriminatedUnion('type', [
        z.strictObject({ type: z.literal('enabled'), budget_tokens: count }),
        z.strictObject({ type: z.literal('adaptive') }),
        z.strictObject({ type: z.literal('disabled') }),
      ])
      .optional()
      .describe("Extended thinking, sent as the request's thinking param: {type: 'enabled', budget_tokens}, {type: 'adaptive'} or {type: 'disabled'}."),
  })
  .describe('Parameters of the loop run (docs/loop.md §2).');

/** The fake API's answer list (`{content, stop_reason, usage}`, `{sse}`, `{status, error}`, `{content, cut_after_events}`). */
export const answersSchema = fakeAnswerListSchema;

export const toolResultSchema = z.strictObject({
  content: z
    .union([z.string(), z.array(z.discriminatedUnion('type', [textBlock, imageBlock, documentBlock]))])
    .default('')
    .describe('What the tool returns to the model.'),
  isError: z.boolean().default(false),
  delayMs: count.default(0).describe('Real milliseconds the call takes (keep it small); it can be cancelled meanwhile.'),
  throw: z.string().optional().describe('The call throws an Error with this message instead of returning.'),
  preventContinuation: z.boolean().default(false).describe('End the loop after this round of tools (hook_stopped).'),
  repeat: count.positive().max(MAX_SCRIPTED_ANSWERS).default(1).describe('Stands for this many copies of the result.'),
});

export const toolSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string().default('A scripted tool.'),
  aliases: z.array(z.string().min(1)).default([]),
  concurrencySafe: z.boolean().default(false),
  readOnly: z.boolean().default(false),
  interruptBehavior: z.enum(['cancel', 'block']).default('block'),
  maxResultSizeChars: z
    .union([count.positive(), z.literal('unbounded')])
    .optional()
    .describe(
      "Results above min(this, toolResultBudget.perResultChars) characters are replaced by a preview; 'unbounded' never. " +
        'Default: the size Claude Code declares for a built-in tool of that name (Bash 30,000, Grep 20,000, Read unbounded, ...), else 50,000.',
    ),
  inputSchema: z
    .record(z.string(), z.unknown())
    .default({ type: 'object' })
    .describe('JSON Schema of the input. Checked minimally: required keys, and the primitive `type` of each property.'),
  results: z
    .array(toolResultSchema)
    .default([])
    // Checked before the copies are made (`scripted-tools.ts`): a huge `repeat` is bad input, not an out-of-memory.
    .refine((results) => results.reduce((sum, r) => sum + r.repeat, 0) <= MAX_SCRIPTED_ANSWERS, {
      message: `expected at most ${MAX_SCRIPTED_ANSWERS} results (repeats counted)`,
    }).describe('Consumed in call order; when used up, a call returns "(no scripted result left)".'),
});

export const stopHookAnswerSchema = z
  .strictObject({
    blockingError: z.string().min(1).optional(),
    preventContinuation: z.boolean().optional(),
    stopReason: z.string().optional(),
  })
  .describe('One stop-hook answer: {blockingError}, {preventContinuation, stopReason} or {} (allow).');

const compactorOutcomes = z.array(z.enum(['ok', 'fail']));

export const compactionScriptSchema = z
  .strictObject({
    autocompact: compactorOutcomes.optional().describe('Scripted autocompact outcomes, in order; used up → "fail".'),
    reactive: compactorOutcomes.optional().describe('Scripted reactive-compact outcomes, in order; used up → "fail".'),
    collapseDrain: z.array(count).optional().describe('Messages committed by each collapse drain, in order; used up → 0.'),
  })
  .describe('Scripted compactors. A key that is absent leaves the real one (its model calls go to compactionModel).');

export const abortScriptSchema = z
  .strictObject({
    during: z.enum(['sampling', 'tools', 'stop_hooks']),
    atModelCall: count.positive().default(1).describe('Abort in the phase that belongs to this model call (1 = the first).'),
    reason: z.enum(['interrupt', 'user']).default('user').describe("'interrupt': the user typed a new message."),
    afterBlock: count
      .positive()
      .optional()
      .describe("With during 'sampling': abort once the k-th block of that reply has streamed (the later blocks never arrive)."),
  })
  .describe('Abort the run deterministically when the given phase starts.');

export const expectSchema = z
  .strictObject({
    terminal: z.enum(TERMINAL_REASONS),
    apiError: z
      .enum(API_ERROR_KINDS)
      .optional()
      .describe("The kind of the API error the run ended on (the Terminal's apiError field); absent = not checked."),
    transitions: z.array(z.enum(CONTINUE_REASONS)).optional().describe('The Continue reasons, in order.'),
    modelCalls: count.optional(),
    toolCalls: count.optional().describe('Invocations that reached a scripted tool.'),
    stopHookCalls: count.optional(),
    scriptExhausted: z.boolean().optional(),
    autocompactBeforeCalls: z
      .array(count.positive())
      .optional()
      .describe('The model calls (1-based) before which autocompact ran, in order; [] = never (attempts count, successful or not).'),
    autocompactsAtLeast: count.optional().describe('Successful autocompacts, at least.'),
    autocompactFailures: count.optional().describe('Failed autocompact attempts, exactly (0: the circuit breaker never came close).'),
    agentRuns: count
      .optional()
      .describe('Invocations of agent tools (child runs started), all agents together; absent = the number of scripted runs.'),
    rejectedRequests: z
      .array(z.string().min(1))
      .optional()
      .describe("The rules of the requests the fake API refused as the real API would, in order (e.g. 'context_window'); [] = none."),
  })
  .describe('The outcome this scenario must reach (checked by the example test and `simulate --check`).');

/** What one subagent run must reach: the run-level checks of `expect`. */
export const agentRunExpectSchema = expectSchema
  .pick({ terminal: true, apiError: true, transitions: true, modelCalls: true, toolCalls: true, scriptExhausted: true })
  .describe("The outcome this child run must reach (checked with the scenario's expect).");

/**
 * The subagents' section, on a given answer-list schema (the JSON Schema of the docs swaps in the answers'
 * structural twin, as for `model`).
 */
export function agentListSchemaOf<A extends z.ZodType>(answers: A) {
  const run = z
    .strictObject({
      toolUseId: z
        .string()
        .min(1)
        .optional()
        .describe('Script the call with this tool_use id (an imported run); absent: the next invocation no other run names.'),
      model: answers.describe('HTTP answers of the fake Messages API to this child run, in order; used up → 500.'),
      tools: z.array(toolSchema).default([]).describe("The child's scripted tools (same format as the top-level tools)."),
      expect: agentRunExpectSchema.optional(),
    })
    .describe('One invocation of the agent tool: the child run it starts.');
  const agent = z
    .strictObject({
      name: z.string().min(1).describe('The tool name the parent model calls.'),
      description: z.string().default('A scripted subagent.'),
      systemPrompt: z.union([z.string(), z.array(z.string())]).optional().describe("The child's system prompt."),
      maxTurns: count.positive().optional().describe("Stop the child after this many model turns."),
      concurrencySafe: z.boolean().default(true).describe("Whether two calls run at once (Claude Code's Task tool: yes)."),
      runs: z
        .array(run)
        .default([])
        .describe("One per invocation, in the order of the parent's tool_use blocks of this name; an invocation beyond the list gets an exhausted script."),
    })
    .describe('A subagent (defineAgentTool) whose child runs are scripted.');
  return z.array(agent).default([]).describe("Subagents the parent may call, each an agent tool whose every child run is scripted (docs/subagents.md).");
}

export const scenarioSourceSchema = z
  .strictObject({
    file: z.string().min(1).describe('The Claude Code transcript the scenario was imported from.'),
    run: count.positive().describe('The loop run of that transcript (1-based, in file order).'),
    startLine: count.positive().describe("The run's first line in the transcript."),
  })
  .describe('Where an imported scenario comes from (written by `turnloop import-claude`); informational, the simulation ignores it.');

/** The scenario object without its cross-field check (the JSON Schema is generated from this). */
export const scenarioObjectSchema = z.strictObject({
  $schema: z.string().optional(),
  name: z.string().min(1).optional().describe('A label; the file name stands in when absent.'),
  description: z.string().default(''),
  source: scenarioSourceSchema.optional(),
  config: configOverridesSchema.default({}),
  params: paramsSchema,
  model: answersSchema.default([]).describe('HTTP answers of the fake Messages API to the main model, in order; used up → 500.'),
  compactionModel: answersSchema.optional().describe('Answers to compaction requests; absent → a short default summary for every one.'),
  tools: z.array(toolSchema).default([]),
  agents: agentListSchemaOf(answersSchema),
  stopHooks: z.array(stopHookAnswerSchema).default([]).describe('One answer per stop-hook invocation; used up → allow.'),
  compaction: compactionScriptSchema.optional(),
  abort: abortScriptSchema.optional(),
  expect: expectSchema.optional(),
});

const BLOCKS_BY_ROLE = {
  user: ['text', 'image', 'document', 'tool_result'],
  assistant: ['text', 'tool_use', 'thinking', 'redacted_thinking'],
} as const;

export const scenarioSchema = scenarioObjectSchema.superRefine((scenario, ctx) => {
  const names = new Set(scenario.tools.flatMap((tool) => [tool.name, ...tool.aliases]));
  // A tool_use id scripts at most one run: a second run naming it would silently never run.
  const runIds = new Set<string>();
  scenario.agents.forEach((agent, i) => {
    if (names.has(agent.name)) ctx.addIssue({ code: 'custom', path: ['agents', i, 'name'], message: `expected a name no tool or other agent has, got "${agent.name}" twice` });
    names.add(agent.name);
    agent.runs.forEach((run, j) => {
      if (run.toolUseId === undefined) return;
      if (runIds.has(run.toolUseId)) ctx.addIssue({ code: 'custom', path: ['agents', i, 'runs', j, 'toolUseId'], message: `expected a tool_use id no other run names, got "${run.toolUseId}" twice` });
      runIds.add(run.toolUseId);
    });
  });
  const { messages, prompt } = scenario.params;
  if (messages.length === 0 && prompt === undefined) {
    ctx.addIssue({ code: 'custom', path: ['params', 'messages'], message: 'expected at least one message (or params.prompt)' });
  }
  messages.forEach((message, i) => {
    if (typeof message.content === 'string') return;
    const allowed: readonly string[] = BLOCKS_BY_ROLE[message.role];
    message.content.forEach((block, j) => {
      if (allowed.includes(block.type)) return;
      ctx.addIssue({
        code: 'custom',
        path: ['params', 'messages', i, 'content', j, 'type'],
        message: `a ${message.role} message cannot hold a ${block.type} block; expected one of ${allowed.join(', ')}`,
      });
    });
  });
});

export type Scenario = z.output<typeof scenarioSchema>;
export type ScenarioInput = z.input<typeof scenarioSchema>;
export type ScenarioTool = z.output<typeof toolSchema>;
export type ScenarioAgent = Scenario['agents'][number];
export type ScenarioAgentRun = ScenarioAgent['runs'][number];
export type AgentRunExpect = z.output<typeof agentRunExpectSchema>;
export type ScenarioParams = z.output<typeof paramsSchema>;
export type MessageParam = z.output<typeof messageParamSchema>;
export type ScenarioExpect = z.output<typeof expectSchema>;
export type AbortScript = z.output<typeof abortScriptSchema>;
export type ScenarioSource = z.output<typeof scenarioSourceSchema>;
export type CompactionScript = z.output<typeof compactionScriptSchema>;
