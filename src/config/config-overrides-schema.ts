/**
 * The zod schema of engine config overrides (`ConfigOverrides`), as scenario files carry them.
 *
 * Derived from `DEFAULT_CONFIG`, so it can never fall behind the engine: every top-level key of the config is
 * accepted, each group (`features`, `limits`, ...) accepts exactly its own keys (all optional, merged over the
 * defaults by `resolveConfig`), and every other key is an error. `models` is a table of model name → full
 * `ModelInfo` (an entry replaces the default one of that name).
 */
import { z } from 'zod';
import { DEFAULT_CONFIG, type ConfigOverrides } from './config.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';

const count = z.number().int().nonnegative();

const modelInfoSchema = z.strictObject({
  contextWindow: count.positive().describe('Tokens the model accepts in one request (prompt + output).'),
  maxOutputTokens: count.positive().describe('Default max_tokens of a request.'),
  maxOutputTokensUpperLimit: count.positive().describe('Highest max_tokens the model allows.'),
});

/** The schema of one value, chosen by the type of its default. */
function valueSchema(value: unknown): z.ZodType {
  if (typeof value === 'boolean') return z.boolean();
  if (typeof value === 'string') return z.string().min(1);
  if (typeof value === 'number') return z.number().nonnegative();
  if (Array.isArray(value)) return z.array(z.string());
  throw new TurnloopError('CONFIG_SCHEMA', `config-overrides-schema: no schema for default ${JSON.stringify(value)}`);
}

function groupSchema(group: Record<string, unknown>): z.ZodType {
  const shape = Object.fromEntries(Object.entries(group).map(([key, value]) => [key, valueSchema(value).optional()]));
  return z.strictObject(shape);
}

function topLevelSchema(key: string, value: unknown): z.ZodType {
  if (key === 'models') return z.record(z.string().min(1), modelInfoSchema);
  if (key === 'defaultModelInfo') return modelInfoSchema.partial();
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return groupSchema(value as Record<string, unknown>);
  return valueSchema(value);
}

const shape = Object.fromEntries(
  Object.entries(DEFAULT_CONFIG).map(([key, value]) => [key, topLevelSchema(key, value).optional()]),
) as Record<keyof typeof DEFAULT_CONFIG, z.ZodOptional<z.ZodType>>;

/**
 * Overrides of the engine config: same keys as the library's `ConfigOverrides`, unknown keys rejected.
 *
 * @example
 * configOverridesSchema.parse({ features: { autoCompact: false }, limits: { maxModelCalls: 5 } });
 */
export const configOverridesSchema = z
  .strictObject(shape)
  .describe('Overrides of the engine config (src/config/config.ts): each group merges over the defaults.') as unknown as z.ZodType<
  ConfigOverrides,
  ConfigOverrides
>;
