/**
 * Tool definitions (docs/loop.md §7.1). `defineTool` turns a loose spec into a `Tool` whose every behaviour is present and
 * total:
 * - `isConcurrencySafe` / `isReadOnly` take the raw model input and answer `false` when the input does not match
 *   the schema or the predicate throws (an unknown input is never trusted to run beside others);
 * - `interruptBehavior` defaults to `'block'`, `maxResultSizeChars` to 50,000 (`Infinity` = exempt from the
 *   tool-result budget), `isShellLike` to `false`;
 * - `validateInput` defaults to ok, `checkPermissions` to allow.
 * The pipeline (`run-tool-use.ts`) parses the input with `inputSchema` before calling anything that takes `Input`.
 */
import { canDescribe, inputJsonSchemaOf, inputSchemaProblem, toToolInputSchema, type AnyInputSchema, type InputOf, type ToolInputSchema } from './tool-input-schema.ts';
import type { DocumentBlock, ImageBlock, TextBlock } from '../messages/types.ts';
import type { ToolDefinitionForModel } from '../data/deps.ts';
import type { ChildRunRequest, ChildRunResult } from './child-runs.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';
import { alwaysAllowed, alwaysValid } from './default-answers.ts';

/** What a tool may answer: plain text or API content blocks. */
export type ToolResultContent = string | Array<TextBlock | ImageBlock | DocumentBlock>;

export interface ToolCallResult {
  content: ToolResultContent;
  isError?: boolean;
  /** Shallow patch of the tool-use context, seen by later tools (docs/loop.md §7.3 says when it applies). */
  contextModifier?: Record<string, unknown>;
  /** Ends the loop after this round of tools (`hook_stopped_continuation`). */
  preventContinuation?: boolean;
}

/** One item of a streaming `call`: progress to show, then exactly one final result. */
export type ToolCallUpdate =
  | { type: 'progress'; message: string; data?: Record<string, unknown> }
  | { type: 'result'; result: ToolCallResult };

/** What every tool callback receives besides its input. */
export interface ToolContext {
  toolUseId: string;
  /**
   * Stable for this call across crashes and recoveries (it is the tool_use id, which the model reply carried and
   * a durable journal kept): pass it to the outside system so that running the call twice does its work once.
   */
  idempotencyKey: string;
  /** Aborted when this call is cancelled (user abort, sibling error, discard, timeout). */
  signal: AbortSignal;
  /** The tool-use context as earlier tools left it. Read-only: change it through `contextModifier`. */
  context: Readonly<Record<string, unknown>>;
  /**
   * Runs a child loop (a subagent) for this call, linked to it (see `src/tools/child-runs.ts`); present when the
   * tool runs inside `query()`.
   */
  runChild?: (request: ChildRunRequest) => Promise<ChildRunResult>;
}

export type ValidationResult = { ok: true } | { ok: false; message: string };

export type PermissionBehavior = 'allow' | 'deny' | 'ask';

export interface PermissionResult {
  behavior: PermissionBehavior;
  message?: string;
  /** A deny whose `message` is the whole text of the call's error tool_result (the host words it itself). */
  exactMessage?: boolean;
  /** Input to use instead of the model's (checked against the schema again). */
  updatedInput?: unknown;
}

export type InterruptBehavior = 'cancel' | 'block';

type MaybePromise<T> = T | Promise<T>;
type StandardSchemaOf<I> = import('@standard-schema/spec').StandardSchemaV1<unknown, I>;

export type ToolCallReturn = MaybePromise<ToolCallResult> | AsyncIterable<ToolCallUpdate>;

/** The argument of `defineTool`. */
export interface ToolSpec<S extends AnyInputSchema> {
  name: string;
  description: string;
  aliases?: string[];
  /** zod 4 or zod 3 (^3.24), or any other Standard Schema (valibot, arktype, ...): see `tool-input-schema.ts`. */
  inputSchema: S;
  /**
   * The JSON Schema the model is shown, when the tool has one of its own (an MCP server's tool does): the model
   * then sees it as given, while `inputSchema` still validates every call.
   */
  inputJSONSchema?: Record<string, unknown>;
  isConcurrencySafe?: (input: InputOf<S>) => boolean;
  isReadOnly?: (input: InputOf<S>) => boolean;
  interruptBehavior?: InterruptBehavior;
  maxResultSizeChars?: number;
  /**
   * An error of this tool cancels its sibling calls in the streaming executor (docs/loop.md §7.5; batches run
   * without it never cancel one). Default: only a tool named `Bash`, as in the original (Claude Code 2.1.88
   * `services/tools/StreamingToolExecutor.ts:354-363`); `true` on another tool is Extension `shellLikeSiblingCancel`.
   */
  isShellLike?: boolean;
  /**
   * Running the call twice has the effect of running it once (read-only, or deduplicated by `idempotencyKey`).
   * Default false: a durable driver then never re-runs a call a crash interrupted (see docs/durable.md).
   */
  idempotent?: boolean;
  validateInput?: (input: InputOf<S>, ctx: ToolContext) => MaybePromise<ValidationResult>;
  checkPermissions?: (input: InputOf<S>, ctx: ToolContext) => MaybePromise<PermissionResult>;
  call: (input: InputOf<S>, ctx: ToolContext) => ToolCallReturn;
}

/**
 * A defined tool. Methods use method syntax on purpose: a `Tool<{ path: string }>` is usable wherever a `Tool` is
 * expected (the registry holds tools of many input types).
 */
export interface Tool<Input = unknown> {
  readonly name: string;
  readonly description: string;
  readonly aliases: readonly string[];
  readonly inputSchema: ToolInputSchema<Input>;
  /** Shown to the model instead of the JSON Schema derived from `inputSchema`. */
  readonly inputJSONSchema?: Record<string, unknown>;
  readonly interruptBehavior: InterruptBehavior;
  readonly maxResultSizeChars: number;
  readonly isShellLike: boolean;
  readonly idempotent: boolean;
  /** Total: false for invalid input or a throwing predicate. */
  isConcurrencySafe(rawInput: unknown): boolean;
  /** Total: false for invalid input or a throwing predicate. */
  isReadOnly(rawInput: unknown): boolean;
  validateInput(input: Input, ctx: ToolContext): Promise<ValidationResult>;
  checkPermissions(input: Input, ctx: ToolContext): Promise<PermissionResult>;
  call(input: Input, ctx: ToolContext): ToolCallReturn;
}

export const DEFAULT_MAX_RESULT_SIZE_CHARS = 50_000;
/** The one tool whose error cancels its siblings by default (its commands often depend on each other). */
export const BASH_TOOL_NAME = 'Bash';

/** Evaluates a predicate on raw input; any doubt answers false. */
function totalPredicate<I>(schema: ToolInputSchema<I>, predicate: ((input: I) => boolean) | undefined) {
  return (rawInput: unknown): boolean => {
    if (!predicate) return false;
    const parsed = schema.safeParse(rawInput);
    if (!parsed.success) return false;
    try {
      return predicate(parsed.data) === true;
    } catch {
      return false;
    }
  };
}

/**
 * Defines a tool with defaults filled in.
 *
 * @example
 * const echo = defineTool({
 *   name: 'Echo',
 *   description: 'Repeats its text.',
 *   inputSchema: z.object({ text: z.string() }),
 *   isConcurrencySafe: () => true,
 *   call: ({ text }) => ({ content: text }),
 * });
 */
export function defineTool<S extends AnyInputSchema>(spec: ToolSpec<S>): Tool<InputOf<S>> {
  type I = InputOf<S>;
  // A schema turnloop cannot use fails here, where the tool is written, not at the first model call.
  const problem = inputSchemaProblem(spec.inputSchema);
  if (problem !== null) throw new TurnloopError('INVALID_TOOL_SCHEMA', `defineTool('${spec.name}'): inputSchema: ${problem}`);
  if (!spec.inputJSONSchema && !canDescribe(spec.inputSchema)) {
    throw new TurnloopError('INVALID_TOOL_SCHEMA', `defineTool('${spec.name}'): inputSchema: a ${spec.inputSchema['~standard'].vendor} schema has no JSON Schema to show the model: pass inputJSONSchema too`);
  }
  const schema = toToolInputSchema(spec.inputSchema as StandardSchemaOf<I>);
  // The spec's own answers are looked up when asked, as ever: a spec may gain or lose one after `defineTool`.
  const validate = async (input: I, ctx: ToolContext): Promise<ValidationResult> => (spec.validateInput ? spec.validateInput(input, ctx) : { ok: true });
  const check = async (input: I, ctx: ToolContext): Promise<PermissionResult> => (spec.checkPermissions ? spec.checkPermissions(input, ctx) : { behavior: 'allow' });
  return {
    name: spec.name,
    description: spec.description,
    aliases: [...(spec.aliases ?? [])],
    inputSchema: schema,
    ...(spec.inputJSONSchema ? { inputJSONSchema: spec.inputJSONSchema } : {}),
    interruptBehavior: spec.interruptBehavior ?? 'block',
    maxResultSizeChars: spec.maxResultSizeChars ?? DEFAULT_MAX_RESULT_SIZE_CHARS,
    isShellLike: spec.isShellLike ?? spec.name === BASH_TOOL_NAME,
    idempotent: spec.idempotent ?? false,
    isConcurrencySafe: totalPredicate(schema, spec.isConcurrencySafe),
    isReadOnly: totalPredicate(schema, spec.isReadOnly),
    // While the spec has none, one shared default each, which the pipeline knows by identity (`run-tool-use.ts`).
    get validateInput() {
      return spec.validateInput ? validate : alwaysValid;
    },
    get checkPermissions() {
      return spec.checkPermissions ? check : alwaysAllowed;
    },
    call: (input: I, ctx: ToolContext) => spec.call(input, ctx),
  };
}

/** The tool as the model sees it: name, description and the JSON Schema of what the model must send. */
export function toolDefinitionForModel(tool: Tool): ToolDefinitionForModel {
  const { $schema: _ignored, ...inputSchema } = tool.inputJSONSchema ?? inputJsonSchemaOf(tool.inputSchema);
  return { name: tool.name, description: tool.description, input_schema: inputSchema };
}
