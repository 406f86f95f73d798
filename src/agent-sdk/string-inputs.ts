/**
 * Number and boolean tool inputs that came as strings, rewritten as claude 2.1.334 rewrites them (probed with
 * test/agent-sdk/programs/parity-string-inputs.ts): a top-level field whose schema type is `number` or `integer`
 * and whose value is a decimal number as a string ("2", "-1.5") becomes that number; one of type `boolean` given
 * "true" or "false" becomes the boolean. Anything else stays as the model sent it: "abc" for a number, "yes" for a
 * boolean, nested objects and array items, fields of any other or of a union type. The rewrite happens before the
 * loop sees the reply, so the call, the assistant message and the next request all carry it. The original loop
 * does not coerce (the input fails its schema): this is the SDK session's behaviour only (Extension
 * `sdkStringToolInputs`). Pure, except `withStringInputsCoerced`'s wrapping of the model caller.
 */
import type { AssistantMessage } from '../messages/types.ts';
import type { ModelCaller, ModelStreamItem, ToolDefinitionForModel } from '../data/deps.ts';
import { LEGACY_SUBAGENT_TOOL_NAME, SUBAGENT_TOOL_NAME } from './subagent-tool-names.ts';

const DECIMAL = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function coerceField(schema: unknown, value: unknown): unknown {
  if (typeof value !== 'string' || typeof schema !== 'object' || schema === null) return value;
  const type = (schema as { type?: unknown }).type;
  if ((type === 'number' || type === 'integer') && DECIMAL.test(value)) {
    const number = Number(value);
    return Number.isFinite(number) && (type === 'number' || Number.isInteger(number)) ? number : value;
  }
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/** `input` with its string numbers and booleans rewritten by the tool's JSON schema (the same object when none is). */
export function coerceToolInput(input: unknown, schema: Record<string, unknown> | undefined): unknown {
  const properties = schema?.properties;
  if (typeof input !== 'object' || input === null || Array.isArray(input) || typeof properties !== 'object' || properties === null) return input;
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const field = Object.hasOwn(properties, key) ? (properties as Record<string, unknown>)[key] : undefined;
    const coerced = coerceField(field, value);
    // Defined, not assigned: a model's `__proto__` key stays a field instead of setting the copy's prototype.
    Object.defineProperty(out, key, { value: coerced, enumerable: true, writable: true, configurable: true });
    if (coerced !== value) changed = true;
  }
  return changed ? out : input;
}

/** The reply with each tool_use input coerced by the schema of the tool it names (unknown tools untouched). */
export function coerceToolInputs(message: AssistantMessage, tools: readonly ToolDefinitionForModel[]): AssistantMessage {
  let changed = false;
  const content = message.message.content.map((block) => {
    if (block.type !== 'tool_use') return block;
    // A call may name the subagent tool by its old name (sdk-tools.ts): the schema is the offered tool's.
    const name = block.name === LEGACY_SUBAGENT_TOOL_NAME ? SUBAGENT_TOOL_NAME : block.name;
    const input = coerceToolInput(block.input, (tools.find((t) => t.name === block.name) ?? tools.find((t) => t.name === name))?.input_schema);
    if (input === block.input) return block;
    changed = true;
    return { ...block, input: input as typeof block.input };
  });
  return changed ? { ...message, message: { ...message.message, content } } : message;
}

/** A model caller whose replies carry coerced tool inputs (the tools are the request's own). */
export function withStringInputsCoerced(callModel: ModelCaller): ModelCaller {
  return async function* (request, options): AsyncIterable<ModelStreamItem> {
    for await (const item of callModel(request, options)) {
      if (item.kind === 'event' && item.event.type === 'model_message') {
        yield { kind: 'event', event: { ...item.event, message: coerceToolInputs(item.event.message, options.tools) } };
      } else yield item;
    }
  };
}
