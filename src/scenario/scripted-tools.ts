/**
 * Real `defineTool` tools whose `call()` returns the results a scenario scripted, in call order per tool.
 *
 * Input checking is deliberately minimal (documented in docs/scenarios.md): the scenario's JSON Schema is read
 * for its `required` keys and the primitive `type` of each property; everything else is accepted. A tool_use that
 * fails the check never reaches `call()` (the runtime answers with a validation error result).
 */
import { z } from 'zod';
import type { ToolCallResult, ToolResultContent } from '../tools/define-tool.ts';
import { defineTool, type Tool } from '../tools/define-tool.ts';
import type { ScenarioTool } from './scenario-schema.ts';
import { CLAUDE_CODE_RESULT_SIZES } from '../config/tool-result-sizes.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';

/** An invocation that reached the tool itself. */
export interface ToolCallRecord {
  id: string;
  name: string;
  input: unknown;
}

export const NO_RESULT_LEFT = '(no scripted result left)';

/** The scenario's declared result size, else the one Claude Code declares for a built-in tool of that name. */
function resultSize(spec: ScenarioTool): { maxResultSizeChars?: number } {
  if (spec.maxResultSizeChars === 'unbounded') return { maxResultSizeChars: Number.POSITIVE_INFINITY };
  if (spec.maxResultSizeChars !== undefined) return { maxResultSizeChars: spec.maxResultSizeChars };
  const builtIn = Object.hasOwn(CLAUDE_CODE_RESULT_SIZES, spec.name) ? CLAUDE_CODE_RESULT_SIZES[spec.name] : undefined;
  return builtIn === undefined ? {} : { maxResultSizeChars: builtIn };
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

function primitiveSchema(type: unknown): z.ZodType {
  switch (type) {
    case 'string':
      return z.string();
    case 'number':
      return z.number();
    case 'integer':
      return z.number().int();
    case 'boolean':
      return z.boolean();
    case 'array':
      return z.array(z.unknown());
    case 'object':
      return z.record(z.string(), z.unknown());
    case 'null':
      return z.null();
    default:
      return z.unknown();
  }
}

/** The minimal zod twin of a JSON Schema: required keys and primitive property types; extra keys allowed. */
export function inputSchemaFromJsonSchema(jsonSchema: Record<string, unknown>): z.ZodType {
  const properties = isRecord(jsonSchema.properties) ? jsonSchema.properties : {};
  const required = Array.isArray(jsonSchema.required) ? jsonSchema.required.filter((key): key is string => typeof key === 'string') : [];
  const shape: Record<string, z.ZodType> = {};
  for (const key of new Set([...Object.keys(properties), ...required])) {
    const property = properties[key];
    const base = primitiveSchema(isRecord(property) ? property.type : undefined);
    const present = base.refine((value) => value !== undefined, { message: 'required' });
    shape[key] = required.includes(key) ? present : base.optional();
  }
  return z.looseObject(shape);
}

/** Waits real time (a scripted slow tool); rejects when the call is cancelled. */
function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * @example
 * const calls: ToolCallRecord[] = [];
 * const tool = scriptedTool({ name: 'Read', results: [{ content: 'file text' }], ... }, (call) => calls.push(call));
 */
export function scriptedTool(spec: ScenarioTool, onCall: (call: ToolCallRecord) => void): Tool {
  let calls = 0;
  const results = spec.results.flatMap((result) => Array.from({ length: result.repeat }, () => result));
  return defineTool({
    name: spec.name,
    description: spec.description,
    aliases: spec.aliases,
    inputSchema: inputSchemaFromJsonSchema(spec.inputSchema),
    isConcurrencySafe: () => spec.concurrencySafe,
    isReadOnly: () => spec.readOnly,
    interruptBehavior: spec.interruptBehavior,
    ...resultSize(spec),
    async call(input, ctx): Promise<ToolCallResult> {
      const scripted = results[calls];
      calls += 1;
      onCall({ id: ctx.toolUseId, name: spec.name, input });
      if (!scripted) return { content: NO_RESULT_LEFT };
      if (scripted.delayMs > 0) await delay(scripted.delayMs, ctx.signal);
      if (scripted.throw !== undefined) throw new TurnloopError('SCRIPTED_TOOL_ERROR', scripted.throw);
      return {
        content: scripted.content as ToolResultContent,
        ...(scripted.isError ? { isError: true } : {}),
        ...(scripted.preventContinuation ? { preventContinuation: true } : {}),
      };
    },
  }) as Tool;
}
