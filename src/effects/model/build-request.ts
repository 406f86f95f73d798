/**
 * Engine `ModelRequest` + call options → the body and headers of one streaming Messages API request. Pure.
 *
 * Invariants:
 * - The body always has `model`, `max_tokens`, `messages` (see `to-api-messages.ts`) and `stream: true`; `system`
 *   is sent as text blocks when non-empty; `tools` are the definitions in `options.tools`, as given (the
 *   interpreter chooses them; `request.tools` only names them).
 * - `querySource` travels in the `x-turnloop-query-source` header (the fake API routes `compact` by it).
 * - A task budget is sent as `output_config.task_budget = {type: 'tokens', total, remaining?}` together with the
 *   `task-budgets-2026-03-13` beta header.
 */
import type { ModelRequest } from '../../reducer/effects.ts';
import type { ToolDefinitionForModel } from '../deps.ts';
import { toApiMessages, type ApiMessageParam } from './to-api-messages.ts';
import { QUERY_SOURCE_HEADER } from '../../config/wire.ts';

export { QUERY_SOURCE_HEADER };
export const TASK_BUDGET_BETA = 'task-budgets-2026-03-13';

export interface ApiRequestBody {
  model: string;
  max_tokens: number;
  messages: ApiMessageParam[];
  system?: Array<{ type: 'text'; text: string }>;
  tools?: ToolDefinitionForModel[];
  output_config?: { task_budget: { type: 'tokens'; total: number; remaining?: number } };
  stream: true;
}

export interface ApiRequest {
  body: ApiRequestBody;
  headers: Record<string, string>;
}

export function buildApiRequest(
  request: ModelRequest,
  options: { querySource: string; tools: readonly ToolDefinitionForModel[] },
): ApiRequest {
  const body: ApiRequestBody = {
    model: request.model,
    max_tokens: request.max_tokens,
    messages: toApiMessages(request.messages),
    stream: true,
  };
  const system = request.system.filter((text) => text.length > 0);
  if (system.length > 0) body.system = system.map((text) => ({ type: 'text', text }));
  if (options.tools.length > 0) {
    body.tools = options.tools.map(({ name, description, input_schema }) => ({ name, description, input_schema }));
  }
  const headers: Record<string, string> = { [QUERY_SOURCE_HEADER]: options.querySource };
  if (request.task_budget) {
    const { total, remaining } = request.task_budget;
    body.output_config = { task_budget: remaining === undefined ? { type: 'tokens', total } : { type: 'tokens', total, remaining } };
    headers['anthropic-beta'] = TASK_BUDGET_BETA;
  }
  return { body, headers };
}
