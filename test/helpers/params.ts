/** Params and config for tests: the defaults of the engine, with a readable session id. */
import { resolveConfig, type ConfigOverrides, type LoopConfig } from '../../src/config/config.ts';
import type { LoopParams } from '../../src/data/state.ts';
import { userText } from './builders.ts';

/**
 * Overrides merged one level deep over the defaults. (`ConfigOverrides` of src/config asks for whole groups,
 * because interfaces such as `FeatureSwitches` do not extend `Record<string, unknown>`; this type does not.)
 */
export type TestConfigOverrides = {
  [K in keyof LoopConfig]?: LoopConfig[K] extends unknown[] ? LoopConfig[K] : LoopConfig[K] extends object ? Partial<LoopConfig[K]> : LoopConfig[K];
};

/** The default config (docs/loop.md §2) with overrides, e.g. `testConfig({ features: { contextCollapse: true } })`. */
export function testConfig(overrides: TestConfigOverrides = {}): LoopConfig {
  return resolveConfig({ sessionId: 'test', ...overrides } as ConfigOverrides);
}

/** A run that starts from one user prompt. */
export function params(prompt = 'Please help.', extra: Omit<LoopParams, 'messages'> = {}): LoopParams {
  return { messages: [userText(prompt)], ...extra };
}
