/**
 * `durableQuery()`: the loop driven through a `Journal`, so that a run killed anywhere resumes where it was, with
 * no effect answered twice. Same options and same yielded items as `query()`, plus the journal.
 *
 * How it runs: it folds `step()` over events, one at a time. Effects are executed in the order the reducer queued
 * them (first in, first out), each to its end before the next starts. Every effect whose answer comes from the
 * world runs inside one journal entry, and the events answering it are journaled together; each tool call is its
 * own entry, so a recovery re-runs only the tools that had not answered. The run's params (ids and timestamps of
 * the first messages) are the first entry. Nothing the reducer sees comes from outside the journal, so a recovery
 * (the same journal, a fresh process) folds the same events to the same states and goes on live from the end.
 *
 * Invariants:
 * - The journal is the event log: entry 0 holds the params and code fingerprint, every later entry the events
 *   answering one effect (or one tool call); the fed events are exactly these plus the `tools_finished` that ends
 *   a round of tools, so `exportDurableSessionLog` re-derives the session log from the journal alone.
 * - An abort is journaled with the entry during which it was seen and fed once, after that entry's events; tools
 *   still run (the runtime answers each with its cancellation), so every tool_use gets a result.
 * - A tool that is not idempotent gets a start marker before it runs. A recovery that finds the marker but no
 *   result does not run the call again: it answers it with an error result saying the outcome is unknown.
 * - A recovery under different code (statechart, tools, `codeVersion`) is refused with `DurableCodeChangedError`.
 * - Stream events go to the consumer live only (they are not journaled); emitted messages are re-derived by the
 *   reducer, so a recovered run yields its whole transcript again.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { LoopConfig } from '../config/config.ts';
import { createDefaultDeps } from '../effects/default-deps.ts';
import {
  executorOf, executorWarning, fallbackOf, outputsOf, type ExecutorEnv, type ExecutorOutput, type RunView, type ToolCommand,
} from '../effects/effect-executors.ts';
import { abortReasonOf } from '../effects/interpreter.ts';
import { collectToEnd, combinedObserver, initialMessages, loopParamsOf, resolveRunConfig, runLoopToEnd, toolRuntimeOf } from '../effects/run-loop.ts';
import type { LoopOptions, QueryDeps, RunLoopOptions, StepObserver } from '../effects/query-options.ts';
import type { ToolRuntime } from '../effects/tool-runtime.ts';
import { errorResultEvent } from '../effects/tools/tool-result-message.ts';
import { ToolUseIdRegistry } from '../effects/unique-tool-use-ids.ts';
import type { QueryItem, ToolUseBlock } from '../messages/types.ts';
import type { Effect } from '../reducer/effects.ts';
import type { LoopEvent } from '../reducer/events.ts';
import type { Terminal } from '../reducer/outcomes.ts';
import type { LoopParams, LoopState } from '../reducer/state.ts';
import { createStepMemo, stepWithMemo } from '../reducer/stepper.ts';
import { sharedChartPaths } from '../effects/chart-paths.ts';
import { initialState } from '../reducer/step.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';
import { checkFingerprint, codeFingerprint, type CodeFingerprint } from './fingerprint.ts';
import type { Journal } from './journal.ts';

export interface DurableQueryOptions extends LoopOptions {
  journal: Journal;
  /** Your version of what the run depends on beyond turnloop and the tools (checked on recovery). */
  codeVersion?: string;
  /**
   * Derive every id from this seed, the journal entry being produced and a count within it, instead of
   * `deps.newId`: two runs of one session then get the same ids (to compare transcripts), and a recovery never
   * repeats an id, as a counter restarted by the new process would.
   */
  idSeed?: string;
}

/** Entry 0 of a durable run. */
export interface StartEntry {
  params: LoopParams;
  fingerprint: CodeFingerprint;
}

/** Every later entry: the events answering one effect or tool call. */
export interface EffectEntry {
  events: LoopEvent[];
  /** The abort reason, when the run's signal was aborted by the end of this entry. */
  abort?: string;
  /** The warning shown when the executor failed (its fallback event is in `events`). */
  warning?: QueryItem;
}

/** The text of the result of a non-idempotent tool call that a crash interrupted. */
export function interruptedToolText(name: string): string {
  return `Error: the ${name} call was interrupted by a crash after it started, and the tool is not marked idempotent, so it was not run again. Whether it took effect is unknown; check before retrying.`;
}

/** Ids scoped to the journal entry being produced: `seed`, entry name and count hashed into a UUID-shaped id. */
class EntryScopedIds {
  private entry = 'start';
  private count = 0;
  constructor(private readonly seed: string) {}

  enter(entry: string): void {
    this.entry = entry;
    this.count = 0;
  }

  readonly next = (): string => {
    const hex = createHash('sha256').update(`${this.seed}\u0000${this.entry}\u0000${this.count++}`).digest('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
  };
}

function jsonCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

class DurableRun implements RunView {
  private state!: LoopState;
  private readonly queue: Effect[] = [];
  /** The run's memo, over the chart's paths shared by every run in the process (`src/effects/chart-paths.ts`). */
  private readonly memo = createStepMemo(sharedChartPaths());
  private readonly streamed: ToolUseBlock[] = [];
  private readonly controller = new AbortController();
  private readonly signal: AbortSignal;
  private env!: ExecutorEnv;
  /** Tells this execution's tool start markers apart from those of a crashed earlier execution. */
  private readonly executionId = randomUUID();
  private onStep: StepObserver | undefined;
  private closeObservers: () => void = () => undefined;
  private stepIndex = 0;
  private abortFed = false;
  private items: QueryItem[] = [];
  terminal: Terminal | null = null;

  constructor(
    private readonly options: DurableQueryOptions,
    private readonly config: LoopConfig,
    private readonly deps: QueryDeps,
    private readonly tools: ToolRuntime,
    private readonly ids: EntryScopedIds | null,
  ) {
    this.signal = options.signal ? AbortSignal.any([options.signal, this.controller.signal]) : this.controller.signal;
  }

  get done(): boolean {
    return this.terminal !== null;
  }

  /** What executors read of the run (`RunView`): its state when they run (one effect at a time, so it holds still). */
  get currentState(): LoopState {
    return this.state;
  }

  takeItems(): QueryItem[] {
    const items = this.items;
    this.items = [];
    return items;
  }

  async start(): Promise<void> {
    const fingerprint = codeFingerprint(this.tools, this.options.codeVersion);
    const entry = jsonCopy(
      await this.options.journal.run<StartEntry>('start', async () => {
        const toolNames = this.tools.definitions().map((tool) => tool.name);
        const params = loopParamsOf(this.options, initialMessages(this.options, this.deps.newId), this.deps.clock.now(), toolNames);
        return { params, fingerprint };
      }, { local: true }),
    );
    checkFingerprint(entry.fingerprint, fingerprint);
    const abort = (reason?: string) => this.controller.abort(reason ?? 'abort');
    const observers = (this.options.observers ?? []).map((create) => create({ config: this.config, params: entry.params, abort }));
    this.onStep = combinedObserver(observers, this.options.onStep);
    this.closeObservers = () => observers.forEach((observer) => observer.close?.());
    const started = initialState(entry.params, this.config);
    this.state = started.state;
    const { config, deps, tools, signal, options } = this;
    this.env = { config, deps, tools, signal, options, toolUseIds: new ToolUseIdRegistry(started.state.context.messages), runToken: {} };
    this.observe(null, started.effects);
    this.queue.push(...started.effects);
  }

  close(): void {
    if (!this.controller.signal.aborted) this.controller.abort('closed');
    this.closeObservers();
  }

  /** Executes the next queued effect. Resolves false when nothing is left to do. */
  async advance(): Promise<boolean> {
    const effect = this.queue.shift();
    if (!effect || this.done) return false;
    await this.execute(effect);
    return true;
  }

  private feed(event: LoopEvent): void {
    if (this.done) return;
    const result = stepWithMemo(this.memo, this.state, event, this.config);
    this.state = result.state;
    this.observe(event, result.effects);
    this.queue.push(...result.effects);
  }

  private observe(event: LoopEvent | null, effects: Effect[]): void {
    this.onStep?.({ index: this.stepIndex++, event, state: this.state, effects });
  }

  /** One journal entry: runs `work` live (or answers from the journal), then feeds what it recorded. */
  private async journaled(name: string, work: () => Promise<LoopEvent[]>, fallback?: () => LoopEvent, local = false): Promise<void> {
    let live = false;
    const entry = jsonCopy(
      await this.options.journal.run<EffectEntry>(name, async () => {
        live = true;
        this.ids?.enter(name);
        try {
          const events = await work();
          return this.signal.aborted ? { events, abort: abortReasonOf(this.signal) } : { events };
        } catch (error) {
          if (!fallback) throw error;
          return { events: [fallback()], warning: executorWarning(error, this.deps.newId) };
        }
      }, { local }),
    );
    if (entry.warning) this.items.push(entry.warning);
    // A replayed reply's tool_use ids were made unique when recorded; claiming them now only registers them.
    if (!live) for (const event of entry.events) if (event.type === 'model_message') this.env.toolUseIds.claim(event.message);
    for (const event of entry.events) this.feed(event);
    if (entry.abort !== undefined && !this.abortFed) {
      this.abortFed = true;
      this.feed({ type: 'abort', reason: entry.abort });
    }
  }

  /**
   * Each effect through its executor (`EFFECT_EXECUTORS`), wrapped in a journal entry when its answer comes from
   * the world: an exhaustive switch over the executor kinds. An executor's `local` work (touching nothing outside
   * the process) may be committed with the next entry: a crash before then only means running it again
   * (docs/durable.md, "Commits per turn").
   */
  private async execute<E extends Effect>(effect: E): Promise<void> {
    const executor = executorOf(effect);
    switch (executor.kind) {
      case 'item':
        this.items.push(executor.item(effect));
        return;
      case 'stream':
      case 'once': {
        const fallback = fallbackOf(effect);
        const work = () => this.collect(outputsOf(executor, effect, this.env, this), fallback === null);
        return this.journaled(`${effect.type}:${effect.id}`, work, fallback ?? undefined, executor.kind === 'once' && executor.local);
      }
      case 'tools':
        return this.runTools(executor.command(effect));
      case 'observe':
        if (!executor.hasWork(this.env)) return;
        // Journaled (with no events) only so that a recovery does not fire them again.
        return this.journaled(`${effect.type}:${effect.id}`, async () => {
          executor.run(effect, this.env);
          return [];
        });
      case 'end':
        this.terminal = executor.terminal(effect);
        this.streamed.length = 0;
        if (!this.controller.signal.aborted) this.controller.abort('done');
        return;
      default: {
        const unknownExecutor: never = executor;
        throw new Error(`unknown executor ${JSON.stringify(unknownExecutor)}`);
      }
    }
  }

  /** Tools: streamed tools wait for the end of the reply; every round runs one call at a time (`runToolRound`). */
  private async runTools(command: ToolCommand): Promise<void> {
    switch (command.op) {
      case 'run':
        return this.runToolRound(command.batches.flatMap((batch) => batch.toolUses));
      case 'enqueue':
        this.streamed.push(command.toolUse);
        return;
      case 'finish':
        return this.runToolRound(this.streamed.splice(0));
      case 'discard':
        this.streamed.length = 0;
        return;
      default: {
        const unknownCommand: never = command;
        throw new Error(`unknown tool command ${JSON.stringify(unknownCommand)}`);
      }
    }
  }

  /**
   * Runs an executor to its end: its events are returned, its stream events go to the consumer live. An optional
   * answer (`optional`: no fallback) that fails is simply not given.
   */
  private async collect(outputs: AsyncIterable<ExecutorOutput>, optional: boolean): Promise<LoopEvent[]> {
    const events: LoopEvent[] = [];
    try {
      for await (const output of outputs) {
        if (output.kind === 'event') events.push(output.event);
        else this.items.push(output.item);
      }
    } catch (error) {
      if (!optional) throw error;
      return [];
    }
    return events;
  }

  /** One round of tools, one call at a time in call order, each its own entry; then `tools_finished`. */
  private async runToolRound(toolUses: ToolUseBlock[]): Promise<void> {
    for (const toolUse of toolUses) await this.runTool(toolUse);
    this.feed({ type: 'tools_finished' });
  }

  private async runTool(toolUse: ToolUseBlock): Promise<void> {
    let interrupted = false;
    if (!(this.tools.isIdempotent?.(toolUse) ?? false)) {
      const marker = await this.options.journal.run<{ by: string }>(`tool_start:${toolUse.id}`, async () => ({ by: this.executionId }));
      interrupted = marker.by !== this.executionId;
    }
    await this.journaled(`tool:${toolUse.id}`, async () => {
      if (interrupted) return [errorResultEvent(this.deps.newId, toolUse, interruptedToolText(toolUse.name))];
      const events: LoopEvent[] = [];
      for await (const result of this.tools.runBatches([{ concurrent: false, toolUses: [toolUse] }], this.signal)) events.push(result);
      return events;
    }, () => errorResultEvent(this.deps.newId, toolUse, `Error: the ${toolUse.name} call failed inside the durable driver`));
  }
}

/**
 * @example
 * const journal = new MemoryJournal();
 * for await (const item of durableQuery({ prompt: 'hi', tools, journal })) console.log(item.type);
 * // after a crash: durableQuery({ prompt: 'hi', tools, journal: new MemoryJournal(journal.entries) })
 */
export async function* durableQuery(options: DurableQueryOptions): AsyncGenerator<QueryItem, Terminal, undefined> {
  if ((options as RunLoopOptions).resumeFrom) throw new TurnloopError('UNSUPPORTED_OPTION', 'durableQuery() resumes from its journal; resumeFrom is not supported (recover by passing the journal of the crashed run)');
  // The boundary check of config overrides, as in the root query(): a mistyped key fails here, named.
  if (options.config !== undefined) (await import('../config/parse-config-overrides.ts')).parseConfigOverrides(options.config);
  const config = resolveRunConfig(options.config, options.maxTurns);
  const ids = options.idSeed === undefined ? null : new EntryScopedIds(options.idSeed);
  const given = ids ? { ...options.deps, newId: ids.next } : options.deps;
  const deps = { ...createDefaultDeps(config, given, runLoopToEnd), ...given };
  const run = new DurableRun(options, config, deps, toolRuntimeOf(options, config, deps), ids);
  try {
    await run.start();
    while (true) {
      for (const item of run.takeItems()) yield item;
      if (run.done) {
        await options.journal.flush?.();
        return run.terminal as Terminal;
      }
      if (!(await run.advance())) break;
    }
    for (const item of run.takeItems()) yield item;
    if (run.terminal) {
      await options.journal.flush?.();
      return run.terminal;
    }
    throw new TurnloopError('NO_TERMINAL', 'the durable loop ran out of effects without reaching a terminal (a bug: the reducer always ends a run in a terminal)');
  } finally {
    run.close();
  }
}

/** Runs `durableQuery()` to its end and collects what it yielded. */
export function runDurableQuery(options: DurableQueryOptions): Promise<{ items: QueryItem[]; terminal: Terminal }> {
  return collectToEnd(durableQuery(options));
}
