/**
 * Which models take `output_config.effort`, and at which levels, as claude 2.1.334 sends it (probed offline,
 * docs/agent-sdk-conformance.md): models before Opus 4.5 and Sonnet 4.6 (Haiku 4.5, Sonnet 4.5...) get none,
 * whatever is asked; the 5.5 family takes every level (`xhigh` probed on Opus 5.5 only); the others take every
 * level but `xhigh`, sent as `high`. Pure.
 */
/** How much effort the model puts into a reply (the API's `output_config.effort`). */
export const EFFORT_LEVELS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
export type EffortLevel = (typeof EFFORT_LEVELS)[number];

const EFFORT_FAMILIES = ['claude-opus-4-5', 'claude-opus-4-6', 'claude-sonnet-4-6', 'claude-opus-5-5', 'claude-sonnet-5-5', 'claude-haiku-5-5'];
const XHIGH_FAMILIES = ['claude-opus-5-5', 'claude-sonnet-5-5', 'claude-haiku-5-5'];

/** The effort a request on `model` carries when `asked` is wanted; undefined: the model takes none. */
export function effortForModel(asked: EffortLevel, model: string): EffortLevel | undefined {
  if (!EFFORT_FAMILIES.some((family) => model.includes(family))) return undefined;
  if (asked === 'xhigh' && !XHIGH_FAMILIES.some((family) => model.includes(family))) return 'high';
  return asked;
}
