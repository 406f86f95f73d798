/**
 * The reducer's state (docs/loop.md §3): plain JSON. `value` is the statechart's state value, `context` everything carried
 * between and within iterations. `JSON.parse(JSON.stringify(state))` continues identically.
 */
import type { Message, ToolUseBlock, Usage } from '../messages/types.ts';
import type { Continue, Terminal } from './outcomes.ts';
import type { EffortLevel } from '../config/model-effort.ts';

/**
 * Extended thinking, sent as the request's `thinking` param (docs/loop.md §10). `display` (how the API returns the
 * thinking text) is sent only when set (the SDK session's `--thinking-display`, src/agent-sdk/request-options.ts).
 */
export type ThinkingParam =
  | { type: 'enabled'; budget_tokens: number; display?: ThinkingDisplay }
  | { type: 'adaptive'; display?: ThinkingDisplay }
  | { type: 'disabled' };

/** How the API returns the reply's thinking text (the request's `thinking.display`). */
export type ThinkingDisplay = 'summarized' | 'omitted' | 'updates';

/** The JSON part of the parameters of one loop run (functions live with the interpreter). */
export interface LoopParams {
  messages: Message[];
  systemPrompt?: string[];
  userContext?: Record<string, string>;
  systemContext?: Record<string, string>;
  /** Names of the tools offered to the model. */
  tools?: string[];
  querySource?: string;
  fallbackModel?: string;
  maxTurns?: number;
  maxOutputTokensOverride?: number;
  taskBudget?: { total: number };
  /** Output tokens to reach before stopping (the "+500k" auto-continue target, docs/loop.md §8). */
  tokenBudget?: number;
  /** Extended thinking for every main-loop request (the forked compactor does not think). */
  thinking?: ThinkingParam;
  /** `output_config.effort` on every main-loop request whose model takes it (absent: none, the API's default applies). */
  effort?: EffortLevel;
  /** Prefix of every id the run derives; defaults to the config's session id. */
  runId?: string;
  /** When the run started (ms since epoch), from the interpreter's clock. */
  startedAt?: number;
}

export interface AutoCompactTracking {
  compacted: boolean;
  turnId: string;
  turnCounter: number;
  consecutiveFailures: number;
}

export interface TokenBudgetTracker {
  continuationCount: number;
  lastDeltaTokens: number;
  lastGlobalTurnTokens: number;
  startedAt: number;
}

/** Running token count: the last reported usage plus an estimate of what came after it (docs/loop.md §6). */
export interface TokenAccount {
  reported: number;
  estimatedSince: number;
}

/** What one iteration collects; reset when an iteration (or a model attempt) starts. */
export interface IterationState {
  assistantMessages: Message[];
  toolUses: ToolUseBlock[];
  concurrencySafe: Record<string, boolean>;
  toolResults: Message[];
  answeredToolUseIds: string[];
  needsFollowUp: boolean;
  withheld: Message | null;
  abortReason: string | null;
  compacted: boolean;
  tokensFreed: number;
  /** True once a tool was handed to the streaming executor in this attempt. */
  streamingToolsStarted: boolean;
  preventContinuation: boolean;
  usage: Usage | null;
  stopHookOutcome: { blockingErrors: string[]; preventContinuation: boolean; stopReason?: string } | null;
  collapseCommitted: number;
}

export interface LoopContext {
  runId: string;
  /** Counter for derived ids (messages, effects). */
  seq: number;
  params: Omit<LoopParams, 'messages'>;
  querySource: string;
  /**
   * History carried between iterations; during an iteration, the working messages ("base" in docs/loop.md §5) as the
   * context pipeline left them. Only ever replaced by new arrays, never mutated: replay's private fold appends in
   * place only to a copy it made and no state it hands out holds (`src/reducer/transient-fold.ts`).
   */
  messages: Message[];
  /**
   * Bumped whenever `messages` changes other than by appending at its end (an edit, a compaction, thinking
   * stripped on fallback); sent with every request (`ModelRequest.historyRevision`) so that a model adapter may
   * skip comparing what an append cannot have changed.
   */
  historyRevision: number;
  /**
   * The user context (`params.userContext`) as the one meta message every request starts with (docs/loop.md §2),
   * built once when the run starts: every request carries the same object, so a model adapter that reuses its last
   * conversion by identity sees an unchanged first message. Null without a user context. Absent in a state from
   * before this field: it is then built per request (the same message).
   */
  userContextMessage?: Message | null;
  autoCompactTracking: AutoCompactTracking | null;
  maxOutputTokensRecoveryCount: number;
  hasAttemptedReactiveCompact: boolean;
  maxOutputTokensOverride: number | null;
  pendingToolUseSummary: { summaryId: string; toolUseIds: string[]; summary: string | null } | null;
  stopHookActive: boolean;
  turnCount: number;
  transition: Continue | null;
  tokenBudget: TokenBudgetTracker;
  taskBudgetRemaining: number | null;
  currentModel: string;
  tokens: TokenAccount;
  /** Output tokens of this run, for the token budget. */
  outputTokens: number;
  modelCalls: number;
  /** USD the main loop's reported usage cost so far (Extension `maxBudgetUsd`). */
  costUsd: number;
  stopHookBlockingCount: number;
  toolUseContext: Record<string, unknown>;
  lastUsage: Usage | null;
  iter: IterationState;
  /** Details of the Terminal being entered (the final state adds its reason). */
  terminal: Terminal | null;
}

export interface LoopState {
  /** The statechart's state value, e.g. `{ exitLadder: 'stopHooks' }` or `'completed'`. */
  value: string | Record<string, unknown>;
  status: 'active' | 'done';
  context: LoopContext;
}
