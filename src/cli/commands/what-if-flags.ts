/**
 * The `--config` and `--params` values of `turnloop replay` (what-if), validated as strictly as a scenario's
 * `config`: unknown or mistyped keys are a `UsageError` naming the flag, the key path and what was expected.
 */
import { z } from 'zod';
import type { ConfigOverrides } from '../../config/config.ts';
import type { WhatIfOverrides } from '../../replay/what-if.ts';
import { configOverridesSchema } from '../../config/config-overrides-schema.ts';
import { describeIssue } from '../../scenario/describe-issue.ts';
import { UsageError } from '../cli-io.ts';
import { tooDeepAt } from '../read-input.ts';

const stringMap = z.record(z.string(), z.string());

/** The JSON params a what-if may change (messages cannot be changed: they are what was recorded). */
export const whatIfParamsSchema = z.strictObject({
  systemPrompt: z.array(z.string()).optional(),
  userContext: stringMap.optional(),
  systemContext: stringMap.optional(),
  tools: z.array(z.string()).optional(),
  querySource: z.string().min(1).optional(),
  fallbackModel: z.string().min(1).optional(),
  maxTurns: z.number().int().nonnegative().optional(),
  maxOutputTokensOverride: z.number().int().positive().optional(),
  taskBudget: z.strictObject({ total: z.number().nonnegative() }).optional(),
  tokenBudget: z.number().nonnegative().optional(),
});

function parseFlagJson(flag: string, text: string): unknown {
  if (tooDeepAt(text) !== null) throw new UsageError(`--${flag}: JSON nested too deeply`);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`--${flag} expects a JSON object: ${(error as Error).message}`);
  }
}

function validated<T>(flag: string, text: string | undefined, schema: z.ZodType<T>): T | undefined {
  if (text === undefined) return undefined;
  const data = parseFlagJson(flag, text);
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new UsageError(`--${flag} expects a JSON object, got: ${text.slice(0, 200)}`);
  const result = schema.safeParse(data, { reportInput: true });
  if (result.success) return result.data;
  const { path, expected } = describeIssue(result.error.issues[0]!, schema, data);
  throw new UsageError(`--${flag}: ${path ? `${path}: ` : ''}${expected}`);
}

/** The what-if overrides of the flags, or undefined when neither flag is given. */
export function whatIfOverridesOf(config: string | undefined, params: string | undefined): WhatIfOverrides | undefined {
  const c = validated<ConfigOverrides>('config', config, configOverridesSchema);
  const p = validated('params', params, whatIfParamsSchema);
  return c || p ? { ...(c ? { config: c } : {}), ...(p ? { params: p } : {}) } : undefined;
}
