/**
 * Engine `ModelRequest` + call options → the body and headers of one streaming Messages API request. Pure.
 *
 * Invariants:
 * - The body always has `model`, `max_tokens`, `messages` (see `to-api-messages.ts`) and `stream: true`; `system`
 *   is sent as text blocks when non-empty; `tools` are the definitions in `options.tools`, as given (the
 *   interpreter chooses them; `request.tools` only names them).
 * - `querySource` travels in the `x-turnloop-query-source` header (the fake API routes `compact` by it); a child
 *   run's `agentRun` path in `x-turnloop-agent-run` (the fake API answers each child run from its own queue).
 * - A task budget is sent as `output_config.task_budget = {type: 'tokens', total, remaining?}` together with the
 *   `task-budgets-2026-03-13` beta header.
 * - `thinking` is sent as given; `enabled` adds the interleaved-thinking beta header (thinking between tool calls).
 * - `effort` is sent as `output_config.effort`, beside a task budget, as the request's model takes it (none on a model
 *   without effort, `xhigh` as `high` where it is not offered: src/config/model-effort.ts).
 * - Prompt caching (`options.promptCaching`, absent = none) marks the last system block and the last block of the
 *   last N messages with `cache_control` (never a thinking block, which cannot carry one), at most 4 in all. The
 *   marked turns are copies put in place of the originals in the message list (a converter lets the caller
 *   replace its last `REPLACEABLE_TURNS`, one per breakpoint): turns are never changed.
 */
import type { PromptCachingConfig } from '../config/config.ts';
import type { ModelRequest } from '../data/effects.ts';
import type { ThinkingParam } from '../data/state.ts';
import type { ToolDefinitionForModel } from '../data/deps.ts';
import type { ApiMessageConverter, HistoryRevision } from './incremental-api-messages.ts';
import { toApiMessages, type ApiMessageParam } from './to-api-messages.ts';
import { AGENT_RUN_HEADER, agentRunKey, QUERY_SOURCE_HEADER } from '../config/wire.ts';
import { effortForModel, type EffortLevel } from '../config/model-effort.ts';

export { QUERY_SOURCE_HEADER };
export const TASK_BUDGET_BETA = 'task-budgets-2026-03-13';
export const INTERLEAVED_THINKING_BETA = 'interleaved-thinking-2025-05-14';
/** The API refuses more breakpoints than this in one request. */
export const MAX_CACHE_BREAKPOINTS = 4;

export type CacheControl = { type: 'ephemeral'; ttl?: '1h' };

export interface ApiRequestBody {
  model: string;
  max_tokens: number;
  messages: ApiMessageParam[];
  system?: Array<{ type: 'text'; text: string; cache_control?: CacheControl }>;
  tools?: ToolDefinitionForModel[];
  thinking?: ThinkingParam;
  output_config?: { effort?: EffortLevel; task_budget?: { type: 'tokens'; total: number; remaining?: number } };
  stream: true;
}

export interface ApiRequest {
  body: ApiRequestBody;
  headers: Record<string, string>;
}

export function buildApiRequest(
  request: ModelRequest,
  options: {
    querySource: string;
    agentRun?: readonly string[];
    tools: readonly ToolDefinitionForModel[];
    thinking?: ThinkingParam;
    effort?: EffortLevel;
    promptCaching?: PromptCachingConfig;
    /** A caller's converter that remembers its last conversion (`incremental-api-messages.ts`): O(new messages). */
    toMessages?: ApiMessageConverter;
    /** The run the request belongs to (`ModelCallOptions.runToken`): the converter trusts its revision with it. */
    runToken?: object;
  },
): ApiRequest {
  const caching = options.promptCaching;
  const cacheControl: CacheControl = caching?.ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
  const system = request.system.filter((text) => text.length > 0);
  const systemBreakpoint = caching?.system === true && system.length > 0;
  const messages = options.toMessages ? options.toMessages(request.messages, options.querySource, historyRevision(request, options.runToken)) : toApiMessages(request.messages);
  const body: ApiRequestBody = {
    model: request.model,
    max_tokens: request.max_tokens,
    messages: caching ? withMessageBreakpoints(messages, Math.min(caching.lastMessages, MAX_CACHE_BREAKPOINTS - (systemBreakpoint ? 1 : 0)), cacheControl) : messages,
    stream: true,
  };
  if (system.length > 0) {
    body.system = system.map((text, i) => (systemBreakpoint && i === system.length - 1 ? { type: 'text', text, cache_control: cacheControl } : { type: 'text', text }));
  }
  if (options.tools.length > 0) {
    body.tools = options.tools.map(({ name, description, input_schema }) => ({ name, description, input_schema }));
  }
  if (options.thinking) body.thinking = options.thinking;
  const headers: Record<string, string> = { [QUERY_SOURCE_HEADER]: options.querySource };
  if (options.agentRun && options.agentRun.length > 0) headers[AGENT_RUN_HEADER] = agentRunKey(options.agentRun);
  const betas: string[] = [];
  const effort = options.effort && effortForModel(options.effort, request.model);
  if (effort) body.output_config = { effort };
  if (request.task_budget) {
    const { total, remaining } = request.task_budget;
    body.output_config = { ...body.output_config, task_budget: remaining === undefined ? { type: 'tokens', total } : { type: 'tokens', total, remaining } };
    betas.push(TASK_BUDGET_BETA);
  }
  if (options.thinking?.type === 'enabled') betas.push(INTERLEAVED_THINKING_BETA);
  if (betas.length > 0) headers['anthropic-beta'] = betas.join(',');
  return { body, headers };
}

function historyRevision(request: ModelRequest, run: object | undefined): HistoryRevision | undefined {
  return request.historyRevision === undefined || run === undefined ? undefined : { run, revision: request.historyRevision };
}

/**
 * The last `count` turns replaced by copies with a breakpoint on their last block that may carry one, in place
 * (copying the list was O(history) per request).
 */
function withMessageBreakpoints(messages: ApiMessageParam[], count: number, cacheControl: CacheControl): ApiMessageParam[] {
  for (let i = messages.length - 1; i >= 0 && i >= messages.length - count; i -= 1) {
    const content = messages[i].content as Array<{ type: string }>;
    const at = content.findLastIndex((block) => block.type !== 'thinking' && block.type !== 'redacted_thinking');
    if (at < 0) continue;
    const marked = [...content];
    marked[at] = { ...content[at], cache_control: cacheControl } as { type: string };
    messages[i] = { ...messages[i], content: marked } as ApiMessageParam;
  }
  return messages;
}
