/**
 * The input of `turnloop bounds` and `turnloop explore`: a scenario file, or `--config` / `--params` JSON (as
 * `replay`'s what-if takes them), or both (the flags then override the scenario's config and params).
 */
import { boundsInputOf, boundsInputOfScenario, type BoundsInput } from '../../bounds/scenario-bounds.ts';
import { mergeConfigGroups } from '../../config/config.ts';
import { loadScenario } from '../../scenario/load-scenario.ts';
import { UsageError } from '../cli-io.ts';
import { readInputText } from '../read-input.ts';
import { whatIfOverridesOf } from './what-if-flags.ts';

export function readBoundsInput(command: string, positionals: string[], config: string | undefined, params: string | undefined, cwd: string): BoundsInput {
  if (positionals.length > 1) throw new UsageError(`expected at most one scenario file, got ${positionals.length} (see turnloop ${command} --help)`);
  const flags = whatIfOverridesOf(config, params) ?? {};
  if (positionals.length === 0) return boundsInputOf(flags.config ?? {}, flags.params ?? {});
  readInputText(positionals[0], cwd, { expected: 'a scenario file (JSON)', format: 'json' });
  const fromScenario = boundsInputOfScenario(loadScenario(positionals[0], cwd));
  if (!flags.config && !flags.params) return fromScenario;
  // Flags over the scenario: config groups merge one level deep, params replace key by key.
  const overrides = flags.config ? mergeConfigGroups(fromScenario.overrides, flags.config) : fromScenario.overrides;
  const { messages: _messages, ...scenarioParams } = fromScenario.params;
  const merged = boundsInputOf(overrides, { ...scenarioParams, ...(flags.params ?? {}) }, fromScenario.options);
  return merged;
}
