/**
 * What the real Messages API refuses before any model runs, with its real error texts (a 400
 * `invalid_request_error`). Pure: reads the request body and the model table only.
 *
 * Invariants:
 * - Only what the real API refuses is refused (docs/fake-api.md lists every rule, its text and its test).
 *   Consecutive turns of the same role are merged first, as the real API does, and the rules that name a message
 *   index (`messages.N`) count the merged turns.
 * - The first broken rule wins; rules run in the order of `REQUEST_RULES`.
 * - The context window is not checked here: it needs the token count of the answer (see `server.ts`).
 */
import { lookupModelInfo, type ModelInfo } from '../config/config.ts';

export interface ModelTable {
  models: Record<string, ModelInfo>;
  defaultModelInfo: ModelInfo;
}

export type RuleName =
  | 'max_tokens'
  | 'thinking_budget'
  | 'messages_present'
  | 'non_empty_content'
  | 'non_empty_text'
  | 'non_whitespace_text'
  | 'tool_use_id_pattern'
  | 'unique_tool_use_ids'
  | 'tool_use_answered'
  | 'tool_result_has_tool_use'
  | 'thinking_first'
  | 'final_thinking_when_disabled'
  | 'final_assistant_starts_with_thinking'
  | 'cache_control_count';

export interface Rejection {
  rule: RuleName;
  message: string;
}

type Block = Record<string, unknown> & { type: string };
interface Turn {
  role: string;
  content: Block[];
}
interface Body {
  model: string;
  max_tokens: number;
  thinking?: { type?: string; budget_tokens?: number };
  system?: unknown;
  tools?: unknown[];
  turns: Turn[];
  /** Messages as sent (before merging), for the rules about one message's content. */
  raw: Array<{ role?: unknown; content?: unknown }>;
}

const THINKING_DOCS = 'https://docs.claude.com/en/docs/build-with-claude/extended-thinking';
const TOOL_USE_ID = /^[a-zA-Z0-9_-]+$/;
const MAX_CACHE_BREAKPOINTS = 4;
const MIN_THINKING_BUDGET = 1024;

export function modelInfoFor(table: ModelTable, model: string): ModelInfo {
  return lookupModelInfo(table.models, table.defaultModelInfo, model);
}

/** The first rule the request breaks, or null when the real API would accept it. */
export function validateRequest(requestBody: unknown, table: ModelTable): Rejection | null {
  const body = readBody(requestBody);
  for (const [rule, check] of REQUEST_RULES) {
    const message = check(body, table);
    if (message !== null) return { rule, message };
  }
  return null;
}

type Check = (body: Body, table: ModelTable) => string | null;

const REQUEST_RULES: Array<[RuleName, Check]> = [
  ['max_tokens', (body, table) => {
    const limit = modelInfoFor(table, body.model).maxOutputTokensUpperLimit;
    return body.max_tokens > limit ? `max_tokens: ${body.max_tokens} > ${limit}, which is the maximum allowed number of output tokens for ${body.model}` : null;
  }],
  ['thinking_budget', (body) => {
    if (body.thinking?.type !== 'enabled') return null;
    const budget = Number(body.thinking.budget_tokens);
    if (!(budget >= MIN_THINKING_BUDGET)) return `thinking.enabled.budget_tokens: Input should be greater than or equal to ${MIN_THINKING_BUDGET}`;
    return body.max_tokens > budget
      ? null
      : `\`max_tokens\` must be greater than \`thinking.budget_tokens\`. Please consult our documentation at ${THINKING_DOCS}#max-tokens-and-context-window-size`;
  }],
  ['messages_present', (body) => (body.raw.length === 0 ? 'messages: at least one message is required' : null)],
  ['non_empty_content', (body) => {
    const index = body.raw.findIndex((message, i) => {
      const empty = message.content === '' || (Array.isArray(message.content) && message.content.length === 0);
      return empty && !(i === body.raw.length - 1 && message.role === 'assistant');
    });
    return index < 0 ? null : `messages.${index}: all messages must have non-empty content except for the optional final assistant message`;
  }],
  ['non_empty_text', (body) => {
    const empty = body.turns.some((turn) => turn.content.some((block) => block.type === 'text' && block.text === ''));
    return empty ? 'messages: text content blocks must be non-empty' : null;
  }],
  ['non_whitespace_text', (body) => {
    const blank = body.turns.some((turn) => turn.content.some((block) => block.type === 'text' && String(block.text).trim() === ''));
    return blank ? 'messages: text content blocks must contain non-whitespace text' : null;
  }],
  ['tool_use_id_pattern', (body) => {
    for (const [i, turn] of body.turns.entries()) {
      for (const [j, block] of turn.content.entries()) {
        if (block.type === 'tool_use' && !TOOL_USE_ID.test(String(block.id ?? ''))) {
          return `messages.${i}.content.${j}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'`;
        }
      }
    }
    return null;
  }],
  ['unique_tool_use_ids', (body) => {
    const seen = new Set<unknown>();
    for (const [i, turn] of body.turns.entries()) {
      for (const [j, block] of turn.content.entries()) {
        if (block.type !== 'tool_use') continue;
        if (seen.has(block.id)) return `messages.${i}.content.${j}: \`tool_use\` ids must be unique`;
        seen.add(block.id);
      }
    }
    return null;
  }],
  ['tool_use_answered', (body) => {
    for (const [i, turn] of body.turns.entries()) {
      if (turn.role !== 'assistant') continue;
      const uses = turn.content.filter((block) => block.type === 'tool_use').map((block) => String(block.id));
      if (uses.length === 0) continue;
      // The results must open the next user turn: text before them does not count as "immediately after".
      const answered = new Set(leadingToolResultIds(body.turns[i + 1]));
      const missing = uses.filter((id) => !answered.has(id));
      if (missing.length > 0) {
        return `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
      }
    }
    return null;
  }],
  ['tool_result_has_tool_use', (body) => {
    for (const [i, turn] of body.turns.entries()) {
      if (turn.role !== 'user') continue;
      const previous = body.turns[i - 1];
      const uses = new Set(previous?.role === 'assistant' ? previous.content.filter((b) => b.type === 'tool_use').map((b) => String(b.id)) : []);
      for (const [j, block] of turn.content.entries()) {
        if (block.type === 'tool_result' && !uses.has(String(block.tool_use_id))) {
          return `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
        }
      }
    }
    return null;
  }],
  ['thinking_first', (body) => {
    for (const [i, turn] of body.turns.entries()) {
      if (turn.role !== 'assistant' || !turn.content.some(isThinking)) continue;
      const first = turn.content[0];
      if (first && !isThinking(first)) {
        return `messages.${i}.content.0: If an assistant message contains any thinking blocks, the first block must be thinking or redacted_thinking. Found ${first.type}.`;
      }
    }
    return null;
  }],
  ['final_thinking_when_disabled', (body) => {
    if (thinkingOn(body)) return null;
    const last = body.turns.length - 1;
    const turn = body.turns[last];
    if (!turn || turn.role !== 'assistant') return null;
    const j = turn.content.findIndex(isThinking);
    return j < 0
      ? null
      : `messages.${last}.content.${j}: When thinking is disabled, an \`assistant\` message in the final position cannot contain \`thinking\`. To use thinking blocks, enable \`thinking\` in your request.`;
  }],
  ['final_assistant_starts_with_thinking', (body) => {
    // Within a tool-use loop (the last user turn answers tools), the assistant turn being answered must open with
    // its thinking: the model continues that turn.
    if (!thinkingOn(body)) return null;
    const last = body.turns.length - 1;
    if (last < 1 || body.turns[last].role !== 'user' || leadingToolResultIds(body.turns[last]).length === 0) return null;
    const first = body.turns[last - 1].content[0];
    if (!first || isThinking(first)) return null;
    return `messages.${last - 1}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at ${THINKING_DOCS}`;
  }],
  ['cache_control_count', (body) => {
    const found = countCacheControl(body);
    return found > MAX_CACHE_BREAKPOINTS ? `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${found}.` : null;
  }],
];

/** Every rule, in the order they run (docs/fake-api.md has a row for each). */
export const REQUEST_RULE_NAMES: readonly RuleName[] = REQUEST_RULES.map(([rule]) => rule);

function thinkingOn(body: Body): boolean {
  return body.thinking?.type === 'enabled' || body.thinking?.type === 'adaptive';
}

function isThinking(block: Block): boolean {
  return block.type === 'thinking' || block.type === 'redacted_thinking';
}

function leadingToolResultIds(turn: Turn | undefined): string[] {
  if (!turn || turn.role !== 'user') return [];
  const ids: string[] = [];
  for (const block of turn.content) {
    if (block.type !== 'tool_result') break;
    ids.push(String(block.tool_use_id));
  }
  return ids;
}

function countCacheControl(body: Body): number {
  const marked = (value: unknown) => ((value as { cache_control?: unknown } | null)?.cache_control != null ? 1 : 0);
  let found = 0;
  for (const tool of body.tools ?? []) found += marked(tool);
  if (Array.isArray(body.system)) for (const block of body.system) found += marked(block);
  for (const turn of body.turns) for (const block of turn.content) found += marked(block);
  return found;
}

/** The request as the rules read it: content as blocks, consecutive same-role turns merged. */
function readBody(requestBody: unknown): Body {
  const body = (requestBody ?? {}) as Record<string, unknown>;
  const raw = Array.isArray(body.messages) ? (body.messages as Body['raw']) : [];
  const turns: Turn[] = [];
  for (const message of raw) {
    const content: Block[] =
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : Array.isArray(message.content)
          ? (message.content as Block[])
          : [];
    const role = String(message.role);
    const last = turns[turns.length - 1];
    if (last && last.role === role) last.content = [...last.content, ...content];
    else turns.push({ role, content });
  }
  return {
    model: String(body.model ?? ''),
    max_tokens: Number(body.max_tokens ?? 0),
    ...(body.thinking && typeof body.thinking === 'object' ? { thinking: body.thinking as Body['thinking'] } : {}),
    system: body.system,
    ...(Array.isArray(body.tools) ? { tools: body.tools } : {}),
    turns,
    raw,
  };
}
