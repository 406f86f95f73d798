/**
 * Input validation for MCP tools, whose input schemas are JSON Schemas: a zod schema that runs Ajv (the validator
 * the MCP SDK itself depends on) and reports each violation as a zod issue with its path, so the model reads the
 * same "the input for X is invalid: - a.b: ..." explanation as for a zod tool (Extension `mcpInputValidation`: Claude
 * Code passes an MCP tool's input on unchecked).
 *
 * Invariants: a schema Ajv cannot compile validates nothing (the server still checks its own input), and never
 * makes the tool unusable; `$schema` picks draft 2020-12 or draft-07 rules (the MCP default is 2020-12); every
 * `pattern` runs on the linear engine (RE2), so no schema can make a check take more than linear time.
 */
import { z } from 'zod';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { ajvLinearRegExp } from '../tools/builtin/linear-regexp.ts';

export interface JsonSchemaIssue {
  path: Array<string | number>;
  message: string;
}

/** Compiles a JSON Schema into a checker that lists what is wrong with a value ([] = valid). */
export type JsonSchemaCompiler = (schema: Record<string, unknown>) => (value: unknown) => JsonSchemaIssue[];

/** The zod schema of an MCP tool's input: an object that the JSON Schema's checker accepts. */
export function jsonSchemaInput(check: (value: unknown) => JsonSchemaIssue[]): z.ZodType<Record<string, unknown>> {
  return z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
    for (const issue of check(value)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  });
}

/** Loads Ajv (lazily: only `mcpTools()` needs it) and returns a compiler for draft 2020-12 and draft-07 schemas. */
export async function loadAjvCompiler(): Promise<JsonSchemaCompiler> {
  const [draft07, draft2020] = await Promise.all([import('ajv'), import('ajv/dist/2020.js')]);
  // Formats are left to the server: checking them needs another package and adds nothing the server won't say.
  // `pattern` and `patternProperties` run on the linear engine: a server's `^(a+)+$` cannot freeze the loop; a
  // pattern RE2 refuses makes the schema fail to compile, which validates nothing (see above).
  const options = { strict: false, allErrors: true, validateFormats: false, validateSchema: false, code: { regExp: ajvLinearRegExp } } as const;
  const ajv07 = new draft07.default.default(options);
  const ajv2020 = new draft2020.default.default(options);
  return (schema) => {
    const { $schema, ...body } = schema;
    const ajv = typeof $schema === 'string' && !/draft-0[4-7]/.test($schema) ? ajv2020 : ajv07;
    let validate: ValidateFunction;
    try {
      validate = ajv.compile(body);
    } catch {
      return () => [];
    }
    return (value) => (validate(value) ? [] : (validate.errors ?? []).map(issueOf));
  };
}

function issueOf(error: ErrorObject): JsonSchemaIssue {
  const path: Array<string | number> = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { path: [...path, String(params.missingProperty)], message: 'required, but missing' };
    case 'additionalProperties':
      return { path: [...path, String(params.additionalProperty)], message: 'not allowed here (no such property)' };
    case 'enum':
      return { path, message: `must be one of ${JSON.stringify(params.allowedValues)}` };
    default:
      return { path, message: error.message ?? `fails "${error.keyword}"` };
  }
}
