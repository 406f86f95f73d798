/**
 * What the pure context layers take and give. They live here, below the interpreter, because both the layers
 * (`src/context`) and the interpreter's injected dependencies (`src/data/deps.ts`) speak them.
 */
import type { Message } from '../messages/types.ts';
import type { ContextLayer } from './effects.ts';
import type { MessageEdit } from './events.ts';

/** Makes ids for messages the engine creates (model replies, tool results, compaction summaries). */
export type IdGenerator = () => string;

/** Result of one context layer (the interpreter turns it into a `context_layer_result` event). */
export interface ContextLayerOutcome {
  edits: MessageEdit[];
  tokensFreed: number;
  emitted?: Message[];
}

export interface ContextLayerInput {
  layer: ContextLayer;
  messages: Message[];
  tokenCount: number;
  now: number;
  newId: IdGenerator;
}

export interface CompactionInput {
  messages: Message[];
  tokenCount: number;
  signal: AbortSignal;
  newId: IdGenerator;
  trigger: 'auto' | 'prompt_too_long' | 'media_size';
}
