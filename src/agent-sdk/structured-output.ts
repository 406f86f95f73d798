/**
 * `--json-schema` (the SDK's `outputFormat: { type: 'json_schema', schema }`), as claude 2.1.334 does it: a
 * `StructuredOutput` tool whose input schema is the given schema. A call whose input matches answers "Structured
 * output provided successfully" and ends the turn (no further model request); the result then carries the input as
 * `structured_output` and its JSON text as `result`. A call that does not match is an error result naming what is
 * wrong, which the model can correct; after `maxAttempts` such calls (5, or MAX_STRUCTURED_OUTPUT_RETRIES, as the
 * real executable) the turn ends `error_max_structured_output_retries`. An answer that does not call the tool is sent
 * back with a reminder to call it (a Stop-hook continuation, bounded by the loop's cap on those). The schema is
 * checked once, at start-up: one that is not JSON Schema is a `HeadlessArgsError`. Validation is ajv's (a
 * dependency, loaded only here).
 */
import type { Ajv, ValidateFunction } from 'ajv';
import { z } from 'zod';
import { defineTool, type Tool } from '../tools/define-tool.ts';
import { ajvLinearRegExp } from '../tools/builtin/linear-regexp.ts';
import { HeadlessArgsError } from './headless-args.ts';
import type { TurnSummary } from './result-message.ts';

export const STRUCTURED_OUTPUT_TOOL = 'StructuredOutput';
export const STRUCTURED_OUTPUT_ACCEPTED = 'Structured output provided successfully';
/** Sent back (as stop-hook feedback) when the model answers without calling the tool, as claude 2.1.334 does. */
export const STRUCTURED_OUTPUT_REMINDER = `You MUST call the ${STRUCTURED_OUTPUT_TOOL} tool to complete this request. Call this tool now.`;
/** claude 2.1.334's default number of tries (five mismatching calls end the turn; checked offline). */
export const DEFAULT_MAX_ATTEMPTS = 5;

/**
 * Ajv for the given schema's draft (2020-12 when its `$schema` says so, else draft-07 as the real executable's
 * messages show), its `pattern`s on the linear engine (src/tools/builtin/linear-regexp.ts), as for MCP tools' schemas: the
 * model writes the input, and a pattern must not let it freeze the loop.
 */
async function loadAjv(schema: Record<string, unknown>): Promise<Ajv> {
  const draft2020 = typeof schema.$schema === 'string' && !/draft-0[4-7]/.test(schema.$schema);
  const loaded = draft2020 ? await import('ajv/dist/2020.js') : await import('ajv');
  return new loaded.default.default({ allErrors: true, strict: false, validateFormats: false, code: { regExp: ajvLinearRegExp } });
}

/** The schema as given, checked: JSON, an object, valid JSON Schema. */
export async function parseJsonSchema(text: string): Promise<{ schema: Record<string, unknown>; validate: (value: unknown) => string | undefined }> {
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    throw new HeadlessArgsError(`--json-schema is not JSON: ${(error as Error).message}`);
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new HeadlessArgsError('--json-schema is not a valid JSON Schema: expected an object');
  }
  const object = schema as Record<string, unknown>;
  const ajv = await loadAjv(object);
  if (ajv.validateSchema(object) !== true) throw new HeadlessArgsError(`--json-schema is not a valid JSON Schema: ${ajv.errorsText(ajv.errors)}`);
  let check: ValidateFunction;
  try {
    check = ajv.compile(object);
  } catch (error) {
    throw new HeadlessArgsError(`--json-schema is not a valid JSON Schema: ${(error as Error).message}`);
  }
  return {
    schema: object,
    validate: (value) => (check(value) ? undefined : (check.errors ?? []).map((e) => `${e.instancePath || 'root'}: ${e.message ?? 'is invalid'}`).join(', ')),
  };
}

export interface StructuredOutput {
  tool: Tool;
  /** Called at the start of each turn: the tries and the answer are per turn. */
  beginTurn(): void;
  /** What the turn produced, for its result. */
  outcome(): TurnSummary['structuredOutput'];
}

export async function createStructuredOutput(schemaText: string, maxAttempts = DEFAULT_MAX_ATTEMPTS): Promise<StructuredOutput> {
  const { schema, validate } = await parseJsonSchema(schemaText);
  let accepted: { value: unknown } | undefined;
  let failures = 0;
  let lastError: string | undefined;
  const tool = defineTool({
    name: STRUCTURED_OUTPUT_TOOL,
    description: 'Return the final answer of this task as structured output. Call this tool exactly once, at the end, with input that matches its schema; the turn ends when it accepts the input.',
    inputSchema: z.unknown(),
    inputJSONSchema: schema,
    isReadOnly: () => true,
    call: (input) => {
      const problem = validate(input);
      if (problem === undefined) {
        accepted = { value: input };
        return { content: STRUCTURED_OUTPUT_ACCEPTED, preventContinuation: true };
      }
      failures += 1;
      lastError = `Output does not match required schema: ${problem}`;
      return { content: lastError, isError: true, ...(failures >= maxAttempts ? { preventContinuation: true } : {}) };
    },
  });
  return {
    tool,
    beginTurn() {
      accepted = undefined;
      failures = 0;
      lastError = undefined;
    },
    outcome() {
      if (accepted) return accepted;
      if (failures >= maxAttempts) return { failedAttempts: failures, ...(lastError ? { lastError } : {}) };
      return undefined;
    },
  };
}
