/**
 * The schemas a tool's input may be written in: any Standard Schema (https://standardschema.dev): zod 4, zod 3
 * (3.24 and later), zod/mini, valibot, arktype. Each becomes one `ToolInputSchema`: it validates a call (`safeParse`,
 * synchronous, zod's result shape) and describes the input to the model as JSON Schema:
 * - a schema with a JSON Schema of its own (zod 4's `toJSONSchema()`, or Standard JSON Schema's
 *   `~standard.jsonSchema`) gives it;
 * - zod 3 has none: `zod-to-json-schema` converts it (loaded only then);
 * - zod 4 before 4.2 (no method) is converted by turnloop's own zod 4 (loaded only then);
 * - any other schema needs `inputJSONSchema` beside it, which `defineTool` says at once.
 * turnloop's own zod (a dependency, for its files) is never the one a tool's schema must come from.
 */
import { createRequire } from 'node:module';
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { TurnloopError } from '../errors/turnloop-error.ts';

/** One problem of a tool input, as the invalid-input message shows it. */
export interface ToolInputIssue {
  readonly path: ReadonlyArray<PropertyKey>;
  readonly message: string;
  readonly code?: string;
}

export type ToolInputParseResult<Input> =
  | { success: true; data: Input; error?: undefined }
  | { success: false; data?: undefined; error: { readonly issues: readonly ToolInputIssue[] } };

/** A tool's input schema as the loop uses it: a Standard Schema that also validates synchronously with `safeParse`. */
export interface ToolInputSchema<Input = unknown> extends StandardSchemaV1<unknown, Input> {
  safeParse(value: unknown): ToolInputParseResult<Input>;
}

/** What a schema's input must be: a Standard Schema, of any library. */
export type AnyInputSchema = StandardSchemaV1;
export type InputOf<S extends AnyInputSchema> = StandardSchemaV1.InferOutput<S>;

type Loose = Record<string, unknown> & { '~standard'?: StandardSchemaV1.Props & Partial<StandardJSONSchemaV1.Props> };

const isObject = (value: unknown): value is Loose => (typeof value === 'object' || typeof value === 'function') && value !== null;
/** zod 3: `_def` and no `_zod` (zod 4 keeps a `_def` too, under `_zod`). */
const isZod3 = (schema: Loose) => '_def' in schema && !('_zod' in schema) && typeof schema.safeParse === 'function';
const isZod4 = (schema: Loose) => '_zod' in schema;

/** Why `schema` cannot be a tool's input schema, or null when it can. */
export function inputSchemaProblem(schema: unknown): string | null {
  if (!isObject(schema)) return `expected a schema (zod 3 or 4, or another Standard Schema), got ${schema === null ? 'null' : typeof schema}`;
  const standard = schema['~standard'];
  if (isObject(standard) && standard.version === 1 && typeof standard.validate === 'function') return null;
  if (isZod3(schema)) return 'a zod 3 schema older than 3.24 (no Standard Schema): upgrade zod to ^3.24 or 4';
  if ('type' in schema || 'properties' in schema || '$schema' in schema) {
    return 'a plain JSON Schema validates nothing by itself: give a schema (zod, valibot, ...) as inputSchema, and the JSON Schema as inputJSONSchema if the model should see it as written';
  }
  return 'expected a schema (zod 3 or 4, or another Standard Schema: an object with a "~standard" member)';
}

/** The issue list of a Standard Schema result, paths as plain keys. */
function issuesOf(issues: readonly StandardSchemaV1.Issue[]): ToolInputIssue[] {
  return issues.map((issue) => ({ message: issue.message, path: (issue.path ?? []).map((segment) => (typeof segment === 'object' ? segment.key : segment)) }));
}

/** `schema` as a `ToolInputSchema`: zod (3 or 4) as it is, since its `safeParse` has that shape; others wrapped. */
export function toToolInputSchema<Input>(schema: StandardSchemaV1<unknown, Input>): ToolInputSchema<Input> {
  const loose = schema as unknown as Loose;
  if (typeof loose.safeParse === 'function' && (isZod3(loose) || isZod4(loose))) return schema as ToolInputSchema<Input>;
  const standard = schema['~standard'];
  return {
    '~standard': standard,
    safeParse(value: unknown): ToolInputParseResult<Input> {
      const result = standard.validate(value);
      if (result instanceof Promise) {
        void result.catch(() => undefined);
        return { success: false, error: { issues: [{ path: [], message: `the ${standard.vendor} schema of this tool validates asynchronously; a tool's input schema must validate synchronously` }] } };
      }
      return result.issues ? { success: false, error: { issues: issuesOf(result.issues) } } : { success: true, data: result.value };
    },
  };
}

const requireHere = createRequire(import.meta.url);
/** JSON Schemas already derived, per schema object (a tool's schema is described on every model call). */
const derived = new WeakMap<object, Record<string, unknown>>();

/** Whether `inputJsonSchemaOf` can describe `schema` (checked by `defineTool`, so that a tool fails when defined). */
export function canDescribe(schema: StandardSchemaV1): boolean {
  const loose = schema as unknown as Loose;
  return typeof loose.toJSONSchema === 'function' || typeof loose['~standard']?.jsonSchema?.input === 'function' || isZod3(loose) || isZod4(loose);
}

/** The JSON Schema of what the model must send (`$schema` left out). */
export function inputJsonSchemaOf(schema: StandardSchemaV1): Record<string, unknown> {
  const cached = derived.get(schema);
  if (cached) return cached;
  const loose = schema as unknown as Loose;
  let json: Record<string, unknown>;
  if (typeof loose.toJSONSchema === 'function') {
    json = (loose.toJSONSchema as (params: object) => Record<string, unknown>)({ io: 'input' });
  } else if (typeof loose['~standard']?.jsonSchema?.input === 'function') {
    json = loose['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
  } else if (isZod3(loose)) {
    const { zodToJsonSchema } = requireHere('zod-to-json-schema') as { zodToJsonSchema: (schema: unknown, options: object) => Record<string, unknown> };
    json = zodToJsonSchema(schema, { target: 'jsonSchema7', $refStrategy: 'root' });
  } else if (isZod4(loose)) {
    const { toJSONSchema } = requireHere('zod') as { toJSONSchema: (schema: unknown, params: object) => Record<string, unknown> };
    json = toJSONSchema(schema, { io: 'input' });
  } else {
    throw new TurnloopError('INVALID_TOOL_SCHEMA', `a ${loose['~standard']?.vendor ?? 'schema'} schema without a JSON Schema: give the tool an inputJSONSchema`);
  }
  const { $schema: _ignored, ...body } = json;
  derived.set(schema, body);
  return body;
}
