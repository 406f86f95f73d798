/**
 * How an iteration ends (docs/loop.md §5): either a Terminal, which ends the run, or a Continue, which starts the next
 * iteration and is remembered in `state.context.transition`.
 */
import type { ApiErrorInfo } from '../messages/types.ts';

export const TERMINAL_REASONS = [
  'blocking_limit',
  'image_error',
  'model_error',
  'aborted_streaming',
  'prompt_too_long',
  'completed',
  'stop_hook_prevented',
  'aborted_tools',
  'hook_stopped',
  'max_turns',
  /** Extension `maxBudgetUsd`: not a reason of the original loop. */
  'max_budget_usd',
] as const;
export type TerminalReason = (typeof TERMINAL_REASONS)[number];

export const CONTINUE_REASONS = [
  'collapse_drain_retry',
  'reactive_compact_retry',
  'max_output_tokens_escalate',
  'max_output_tokens_recovery',
  'stop_hook_blocking',
  'token_budget_continuation',
  'next_turn',
] as const;
export type ContinueReason = (typeof CONTINUE_REASONS)[number];

/** A finite cap of docs/loop.md §9.10 that ended the run. */
export type CapName = 'maxModelCalls' | 'maxStopHookBlocking';

export interface ModelErrorInfo {
  message: string;
  status?: number;
  type?: string;
}

/** The token-budget decision that ended a turn (docs/loop.md §8); the original only logs it. Extension `terminalTokenBudget`. */
export interface TokenBudgetStop {
  pct: number;
  continuations: number;
  diminishing: boolean;
}

export type Terminal =
  | { reason: 'model_error'; error: ModelErrorInfo }
  | { reason: 'max_turns'; turnCount: number; cap?: CapName; message?: string }
  | { reason: 'stop_hook_prevented'; stopReason?: string; cap?: CapName; message?: string }
  /** Extension `maxBudgetUsd`: the spend so far and the cap it would have passed. */
  | { reason: 'max_budget_usd'; costUsd: number; maxCostUsd: number; message: string }
  | {
      reason: Exclude<TerminalReason, 'model_error' | 'max_turns' | 'stop_hook_prevented' | 'max_budget_usd'>;
      message?: string;
      /**
       * Extension `terminalApiError`: the API error the run ended on (docs/loop.md §4.9.3 ends it `completed`, as the
       * original does; this field lets an embedder tell that ending from a clean one without reading messages).
       */
      apiError?: ApiErrorInfo;
      /** Extension `terminalTokenBudget`: set when a token-budget turn stopped after continuing or on diminishing returns. */
      tokenBudget?: TokenBudgetStop;
    };

export type Continue =
  | { reason: 'collapse_drain_retry'; committed: number }
  | { reason: 'max_output_tokens_recovery'; attempt: number }
  | { reason: Exclude<ContinueReason, 'collapse_drain_retry' | 'max_output_tokens_recovery'> };
