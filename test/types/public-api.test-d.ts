/**
 * Type tests of the public API (checked by `tsc --noEmit`, which `npm test` runs first): what an embedder sees.
 */
import { expectTypeOf } from 'vitest';
import { z } from 'zod';
import {
  defineTool,
  initialState,
  query,
  resolveConfig,
  step,
  type Effect,
  type EffectOf,
  type LoopEvent,
  type LoopState,
  type QueryItem,
  type Terminal,
  type TerminalReason,
} from '../../src/index.ts';

// step() takes JSON state, a catalogued event and the config; it returns the next state and effects.
const config = resolveConfig({ features: { historySnip: true }, limits: { maxModelCalls: 10 } });
const start = initialState({ messages: [] }, config);
expectTypeOf(start.state).toEqualTypeOf<LoopState>();
expectTypeOf(start.effects).toEqualTypeOf<Effect[]>();
expectTypeOf(step).parameter(1).toEqualTypeOf<LoopEvent>();
expectTypeOf(step(start.state, { type: 'tools_finished' }, config).effects).toEqualTypeOf<Effect[]>();

// @ts-expect-error: an event outside the catalogue does not type-check
step(start.state, { type: 'not_an_event' }, config);

// @ts-expect-error: config groups are checked key by key
resolveConfig({ features: { notAFeature: true } });

// Effects are a discriminated union: narrowing by `type` gives the fields.
expectTypeOf<EffectOf<'call_model'>['request']['max_tokens']>().toEqualTypeOf<number>();
expectTypeOf<EffectOf<'terminated'>['terminal']>().toEqualTypeOf<Terminal>();
expectTypeOf<Terminal['reason']>().toEqualTypeOf<TerminalReason>();

// defineTool infers the input type from the zod schema.
const tool = defineTool({
  name: 'echo',
  description: 'echo',
  inputSchema: z.object({ text: z.string(), times: z.number().optional() }),
  call: async (input) => {
    expectTypeOf(input).toEqualTypeOf<{ text: string; times?: number | undefined }>();
    return { content: input.text };
  },
});

// query() yields items and returns the Terminal.
const run = query({ prompt: 'hi', tools: [tool], config: { model: 'claude-sonnet-4-6' } });
expectTypeOf(run).toEqualTypeOf<AsyncGenerator<QueryItem, Terminal, undefined>>();

// Internal plumbing is not a query() option (it lives in InternalLoopOptions, for turnloop's own layers).
// @ts-expect-error: resumeFrom is internal
query({ prompt: 'hi', resumeFrom: { state: start.state, effects: [], nextIndex: 1 } });
// @ts-expect-error: agentTree is internal
query({ prompt: 'hi', agentTree: undefined });
// A full config is a valid override.
query({ prompt: 'hi', config: resolveConfig({}) });
