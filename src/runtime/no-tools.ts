/** The tool runtime of a run given no tools: it offers none, and a model that asks for one anyway is a bug to name. */
import { TurnloopError } from '../errors/turnloop-error.ts';
import type { ToolRuntime } from '../data/tool-runtime.ts';

export const NO_TOOLS: ToolRuntime = {
  definitions: () => [],
  concurrencySafe: () => ({}),
  runBatches: async function* () {},
  startStreaming: () => {
    throw new TurnloopError('NO_TOOLS', 'no tools were given to query(), but the model asked for one');
  },
};
