/**
 * The options of `query()`: the loop's parameters (JSON), the functions that go with them (tools, hooks,
 * permission check), the config and the injected dependencies.
 */
import type { ChildLink, TreeBudget } from '../tools/child-runs.ts';
import type { ConfigOverrides, LoopConfig } from '../config/config.ts';
import type { Message } from '../messages/types.ts';
import type { Effect } from '../data/effects.ts';
import type { LoopEvent } from '../data/events.ts';
import type { LoopParams, LoopState } from '../data/state.ts';
import type {
  AttachmentCollector,
  Clock,
  CollapseDrainer,
  Compactor,
  ContextLayerRunner,
  IdGenerator,
  ModelCaller,
  PostSamplingHook,
  StopFailureHook,
  StopHook,
  ToolUseSummarizer,
} from '../data/deps.ts';
import type { Tool } from '../tools/define-tool.ts';
import type { CanUseTool, PostToolHook, PreToolHook } from '../tools/call-deps.ts';
import type { ToolRuntime } from '../data/tool-runtime.ts';

export interface QueryDeps {
  callModel: ModelCaller;
  runContextLayer: ContextLayerRunner;
  autocompact: Compactor;
  reactiveCompact: Compactor;
  drainCollapse: CollapseDrainer;
  collectAttachments: AttachmentCollector;
  summarizeToolUses: ToolUseSummarizer;
  clock: Clock;
  newId: IdGenerator;
}

/** One step of a run: the event (null for the initial step), the state it led to, the effects it asked for. Read-only
 * data: an observer may keep it (the recorder queues it until its next commit), never change it. */
export interface StepRecord {
  index: number;
  event: LoopEvent | null;
  state: LoopState;
  effects: Effect[];
}

/** Called after every step, in order: the basis of session recording and live inspection. */
export type StepObserver = (step: StepRecord) => void;

/**
 * Holds a run after a step is computed and observed, before its effects run: a debugger's breakpoint. While it
 * holds, no effect runs and no further event is taken. It must settle once `signal` aborts, so that an abort (or
 * closing the generator) still drives the run to its terminal. The initial step is never held.
 */
export type StepGate = (step: StepRecord, signal: AbortSignal) => Promise<void> | void;

/** A step observer that is told when the run is over (to flush a file, close a connection). */
export interface RunObserver {
  onStep: StepObserver;
  /** Optionally holds the run between steps (see `StepGate`). */
  gate?: StepGate;
  close?(): void;
}

/** What an observer is told of the run it watches, and the one thing it may do to it: abort it. */
export interface ObservedRun {
  config: LoopConfig;
  params: LoopParams;
  /** Aborts the run through its normal abort path (every tool_use still gets its result). */
  abort(reason?: string): void;
}

/**
 * Who raised an error the run survived: the executor of an effect (its fallback answer, if any, was fed instead), a
 * fire-and-forget hook an effect started, or an observer (or step gate) of the run's steps.
 */
export type RunErrorSource = 'executor' | 'hook' | 'observer';

/** Where an error the run survived came from: `effect` is the effect whose work failed (null for an observer). */
export interface RunErrorContext {
  raisedBy: RunErrorSource;
  effect: Effect | null;
}

/** Told of every error the run survives (`LoopOptions.onError`). */
export type RunErrorHandler = (error: unknown, context: RunErrorContext) => void;

/** Creates a `RunObserver` for one run, once its config and params are resolved. */
export type RunObserverFactory = (run: ObservedRun) => RunObserver;

/** The loop's JSON parameters a caller sets (docs/loop.md §2): `LoopParams` but for what the run fills in itself. */
export type LoopParamOptions = Omit<LoopParams, 'messages' | 'tools' | 'startedAt'>;

/**
 * The options of a run a caller gives (`query()` at the root adds recording, telemetry and the inspector): the loop's
 * parameters, the functions that go with them (tools, hooks, permission check), config overrides, dependencies and
 * observers. Internal plumbing is apart, in `InternalLoopOptions`.
 */
export interface LoopOptions extends LoopParamOptions {
  /** The conversation so far; or use `prompt` for a single user message. */
  messages?: Message[];
  prompt?: string;
  /**
   * The tools the model may use: `defineTool` tools (run by the built-in runtime with the run's ids, timeout and
   * concurrency cap), or a ready `ToolRuntime`. A function is asked for the current list before each model call
   * (tools that change between turns, such as an MCP server's after `tools/list_changed`).
   */
  tools?: readonly Tool[] | ToolRuntime | (() => readonly Tool[]);
  /** Permission check for each tool call (with `Tool[]`); a deny becomes an error result with the reason. */
  canUseTool?: CanUseTool;
  /** Hooks around each tool call (with `Tool[]`): before permission is decided, and after the call. */
  preToolHooks?: readonly PreToolHook[];
  postToolHooks?: readonly PostToolHook[];
  stopHooks?: StopHook[];
  stopFailureHooks?: StopFailureHook[];
  postSamplingHooks?: PostSamplingHook[];
  /** Aborting it ends the run: reason `'interrupt'` means the user typed a new message. */
  signal?: AbortSignal;
  /**
   * Overrides of the default config, merged group by group (`resolveConfig`); a full `LoopConfig` is a valid
   * override too. `query()` checks them once, before the run, and names a mistyped key.
   */
  config?: ConfigOverrides;
  deps?: Partial<QueryDeps>;
  /** Sees every step (event, resulting state, effects). An error it throws goes to `onError`; the run goes on. */
  onStep?: StepObserver;
  /**
   * The one route of every error the run survives: an executor that failed (its fallback answer is fed), an
   * optional answer that failed (none is fed), a fire-and-forget hook that threw, an observer or step gate that
   * threw. Default: a warning item (`{ type: 'system', subtype: 'warning', level: 'error' }`) in the run's output.
   */
  onError?: RunErrorHandler;
  /** Holds the run between steps (see `StepGate`); observers may bring their own gate too. */
  stepGate?: StepGate;
  /**
   * Watch the run from its first step: each factory is called once with the run's resolved config and params (what
   * a session log's header needs); its observer then sees every step, and `close` runs when the run ends. Session
   * recording (the root `query()`'s `record` option) attaches this way.
   */
  observers?: readonly RunObserverFactory[];
  /** Subagents (`defineAgentTool`): the model-call budget shared by every child run of this run's tree (default 200). */
  agents?: { maxModelCalls?: number };
  /** Observers of each child run a tool call starts, by its link to the call (a recorder per child, say). */
  childObservers?: (link: ChildLink) => readonly RunObserverFactory[];
  /**
   * The clock and ids of each child run (default: the parent's). A simulation gives every child its own, so the
   * ids and times of concurrent children do not depend on which of them ran first.
   */
  childDeps?: (link: ChildLink) => Partial<Pick<QueryDeps, 'clock' | 'newId'>>;
  /** Observers for the runs this run forks (the compactor's own loop), so they can be watched too. */
  forkObservers?: readonly RunObserverFactory[];
}

/**
 * Plumbing that turnloop's own layers set for a run and a caller never does: never among the public `query()`
 * options, so a new one cannot leak into a session log's params or a user's autocomplete.
 */
export interface InternalLoopOptions {
  /** Set by a parent run for its children: the tree's budget, its raw model caller, and the link so far. */
  agentTree?: { budget: TreeBudget; callModel: ModelCaller; toolUseIds: string[] };
  /**
   * Resume: start from this (replayed) state instead of a fresh one; the interpreter first executes `effects`
   * (what the state waits for) and numbers the next step `nextIndex` for `onStep`. Params are then ignored.
   */
  resumeFrom?: { state: LoopState; effects: Effect[]; nextIndex: number };
}

/** What the engine (`runLoop`) takes: the public options plus the internal plumbing. */
export type RunLoopOptions = LoopOptions & InternalLoopOptions;

/**
 * The option keys that are loop parameters, copied into the run's `LoopParams` (and so into a session log's
 * header). An allow-list: any other option (a function, a new plumbing field) stays out. The type checker holds it
 * equal to `keyof LoopParamOptions`: a parameter added to `LoopParams` and not listed here fails to compile.
 */
export const LOOP_PARAM_KEYS = [
  'systemPrompt', 'userContext', 'systemContext', 'querySource', 'fallbackModel', 'maxTurns', 'maxOutputTokensOverride',
  'taskBudget', 'tokenBudget', 'thinking', 'effort', 'runId',
] as const satisfies ReadonlyArray<keyof LoopParamOptions>;

type UnlistedParamKeys = Exclude<keyof LoopParamOptions, (typeof LOOP_PARAM_KEYS)[number]>;
/** Compiles only while every key of `LoopParamOptions` is in `LOOP_PARAM_KEYS`. */
export const EVERY_PARAM_KEY_LISTED: [UnlistedParamKeys] extends [never] ? true : UnlistedParamKeys = true;
