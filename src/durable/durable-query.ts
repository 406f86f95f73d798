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
 * - The run is resolved (`resolveRun()`) and run (the run core, `src/drivers/run-core.ts`) as `query()`'s is, and the
 *   options are checked and extended (record, telemetry, inspect) by the same boundary (`src/api/run-options.ts`):
 *   only the scheduler differs, this journaled one.
 * - An error the run survives goes the run's one route (`onError`, default a warning item); the warning is
 *   journaled with its entry, so a recovery shows it again, and `onError` is told live only.
 */
import { createHash, randomUUID } from 'node:crypto';
import { engineOptionsOf, type QueryOptions } from '../api/run-options.ts';
import { outputsOf, type ExecutorOutput, type ObserveExecutor, type OnceExecutor, type StreamExecutor, type ToolCommand } from '../runtime/effect-executors.ts';
import type { RunLoopOptions } from '../runtime/query-options.ts';
import { resolveRun, runParamsOf, watchRun, type ResolvedRun, type RunWatch } from '../drivers/resolve-run.ts';
import { abortReasonOf, driveRun, RunCore } from '../drivers/run-core.ts';
import { collectToEnd, runLoopToEnd } from '../drivers/run-loop.ts';
import { errorResultEvent } from '../tools/tool-result-message.ts';
import type { QueryItem, ToolUseBlock } from '../messages/types.ts';
import type { Effect } from '../data/effects.ts';
import type { LoopEvent } from '../data/events.ts';
import type { Terminal } from '../data/outcomes.ts';
import type { LoopParams } from '../data/state.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';
import { checkFingerprint, codeFingerprint, type CodeFingerprint } from './fingerprint.ts';
import type { Journal } from './journal.ts';

/** The options of `durableQuery()`: `query()`'s (record, telemetry and inspect included), plus the journal. */
export interface DurableQueryOptions extends QueryOptions {
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
  /** How many of `events` were fed before the abort was (absent: after all of them). */
  abortAt?: number;
  /** The warning shown when the executor failed (its fallback event, if any, is in `events`). */
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

/** The journaled scheduler of the run core: one effect at a time, each answer inside a journal entry. */
class DurableRun extends RunCore {
  private readonly queue: Effect[] = [];
  private readonly streamed: ToolUseBlock[] = [];
  /** Tells this execution's tool start markers apart from those of a crashed earlier execution. */
  private readonly executionId = randomUUID();
  private abortFed = false;
  /** The entry being produced live, if any. */
  private open: EffectEntry | null = null;

  constructor(
    private readonly durable: DurableRunOptions,
    resolved: ResolvedRun,
    watch: RunWatch,
    params: LoopParams,
    private readonly ids: EntryScopedIds | null,
  ) {
    super(durable, resolved, watch);
    const started = this.initialState(params);
    this.begin(started, null);
    this.queue.push(...started.effects);
  }

  override async finish(): Promise<void> {
    await this.durable.journal.flush?.();
  }

  protected async stop(reason: string): Promise<void> {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }

  /** Executes the next queued effect. Resolves false when nothing is left to do. */
  async advance(): Promise<boolean> {
    const effect = this.queue.shift();
    if (!effect || this.done) return false;
    await this.dispatch(effect);
    return true;
  }

  private feed(event: LoopEvent): void {
    if (this.done) return;
    this.queue.push(...this.step(event).effects);
  }

  /**
   * One journal entry. Live, `work` runs and every event it gives is fed at once (a JSON copy, as a recovery would
   * read it) and recorded, so the run sees each answer when `query()` would: an observer that aborts after a
   * reply's first block cuts that reply here too. An abort seen during the entry is fed once, at the point it was
   * seen, and its place is recorded (`abortAt`). When the work fails, what it fed stays and its fallback follows.
   * On recovery the entry is read back and fed the same way, with nothing run.
   */
  private async journaled(name: string, effect: Effect, work: () => Promise<void>, fallback: (() => LoopEvent) | null, local = false): Promise<void> {
    let live = false;
    const recorded = await this.durable.journal.run<EffectEntry>(name, async () => {
      live = true;
      this.ids?.enter(name);
      const entry: EffectEntry = { events: [] };
      this.open = entry;
      try {
        await work();
      } catch (error) {
        const warning = this.reported(error, 'executor', effect);
        if (warning) {
          entry.warning = warning;
          this.items.push(warning);
        }
        if (fallback) this.record(fallback());
      } finally {
        this.open = null;
      }
      if (this.signal.aborted && entry.abortAt === undefined) entry.abort = abortReasonOf(this.signal);
      if (entry.abort !== undefined && !this.abortFed) {
        this.abortFed = true;
        this.feed({ type: 'abort', reason: entry.abort });
      }
      return entry;
    }, { local });
    if (!live) this.replay(jsonCopy(recorded));
  }

  /** An event of the open entry: recorded, fed, and followed by the abort if the run was aborted meanwhile. */
  private record(event: LoopEvent): void {
    const entry = this.open as EffectEntry;
    const copy = jsonCopy(event);
    entry.events.push(copy);
    this.feed(copy);
    if (this.signal.aborted && !this.abortFed) {
      this.abortFed = true;
      entry.abort = abortReasonOf(this.signal);
      entry.abortAt = entry.events.length;
      this.feed({ type: 'abort', reason: entry.abort });
    }
  }

  /** A recorded entry fed again: its warning, its events, and its abort where it was seen (else after them). */
  private replay(entry: EffectEntry): void {
    if (entry.warning) this.items.push(entry.warning);
    const abortAt = entry.abort === undefined || this.abortFed ? -1 : (entry.abortAt ?? entry.events.length);
    for (let i = 0; i <= entry.events.length; i++) {
      if (i === abortAt) {
        this.abortFed = true;
        this.feed({ type: 'abort', reason: entry.abort as string });
      }
      const event = entry.events[i];
      if (event === undefined) break;
      // A replayed reply's tool_use ids were made unique when recorded; claiming them now only registers them.
      if (event.type === 'model_message') this.env.toolUseIds.claim(event.message);
      this.feed(event);
    }
  }

  /**
   * A stream or once executor inside its entry. An executor's `local` work (touching nothing outside the process)
   * may be committed with the next entry: a crash before then only means running it again (docs/durable.md,
   * "Commits per turn").
   */
  protected runStream<E extends Effect>(effect: E, executor: StreamExecutor<E>, fallback: (() => LoopEvent) | null): Promise<void> {
    return this.journaled(`${effect.type}:${effect.id}`, effect, () => this.collect(outputsOf(executor, effect, this.env, this)), fallback);
  }

  protected runOnce<E extends Effect>(effect: E, executor: OnceExecutor<E>, fallback: (() => LoopEvent) | null): Promise<void> {
    return this.journaled(`${effect.type}:${effect.id}`, effect, () => this.collect(outputsOf(executor, effect, this.env, this)), fallback, executor.local);
  }

  protected runObserve<E extends Effect>(effect: E, executor: ObserveExecutor<E>): Promise<void> | void {
    if (!executor.hasWork(this.env)) return;
    // Journaled (with no events) only so that a recovery does not fire them again.
    return this.journaled(`${effect.type}:${effect.id}`, effect, async () => executor.run(effect, this.env, this), null);
  }

  protected stopWork(): void {
    this.streamed.length = 0;
    if (!this.controller.signal.aborted) this.controller.abort('done');
  }

  /** Tools: streamed tools wait for the end of the reply; every round runs one call at a time (`runToolRound`). */
  protected runTools(effect: Effect, command: ToolCommand): Promise<void> | void {
    switch (command.op) {
      case 'run':
        return this.runToolRound(effect, command.batches.flatMap((batch) => batch.toolUses));
      case 'enqueue':
        this.streamed.push(command.toolUse);
        return;
      case 'finish':
        return this.runToolRound(effect, this.streamed.splice(0));
      case 'discard':
        this.streamed.length = 0;
        return;
      default: {
        const unknownCommand: never = command;
        throw new TurnloopError('UNKNOWN_TOOL_COMMAND', `unknown tool command ${JSON.stringify(unknownCommand)}`);
      }
    }
  }

  /** Runs an executor to its end inside the open entry: its events recorded and fed, its stream events to the consumer. */
  private async collect(outputs: AsyncIterable<ExecutorOutput>): Promise<void> {
    for await (const output of outputs) {
      if (output.kind === 'event') this.record(output.event);
      else this.items.push(output.item);
    }
  }

  /** One round of tools, one call at a time in call order, each its own entry; then `tools_finished`. */
  private async runToolRound(effect: Effect, toolUses: ToolUseBlock[]): Promise<void> {
    for (const toolUse of toolUses) await this.runTool(effect, toolUse);
    this.feed({ type: 'tools_finished' });
  }

  private async runTool(effect: Effect, toolUse: ToolUseBlock): Promise<void> {
    let interrupted = false;
    if (!(this.tools.isIdempotent?.(toolUse) ?? false)) {
      const marker = await this.durable.journal.run<{ by: string }>(`tool_start:${toolUse.id}`, async () => ({ by: this.executionId }));
      interrupted = marker.by !== this.executionId;
    }
    await this.journaled(`tool:${toolUse.id}`, effect, async () => {
      if (interrupted) return this.record(errorResultEvent(this.deps.newId, toolUse, interruptedToolText(toolUse.name)));
      for await (const result of this.tools.runBatches([{ concurrent: false, toolUses: [toolUse] }], this.signal)) this.record(result);
    }, () => errorResultEvent(this.deps.newId, toolUse, `Error: the ${toolUse.name} call failed inside the durable driver`));
  }
}

/** What the journaled driver takes: the engine's options (checked and extended at the boundary) and the journal's. */
export type DurableRunOptions = RunLoopOptions & Pick<DurableQueryOptions, 'journal' | 'codeVersion' | 'idSeed'>;

/**
 * The journaled driver, below the boundary (as `runLoop()` is to `query()`): entry 0 holds the run's params, made
 * once; a recovery reads them back, and the run goes on from the journal.
 */
export function durableRunLoop(options: DurableRunOptions): AsyncGenerator<QueryItem, Terminal, undefined> {
  return driveRun(async () => {
    if (options.resumeFrom) throw new TurnloopError('UNSUPPORTED_OPTION', 'durableQuery() resumes from its journal; resumeFrom is not supported (recover by passing the journal of the crashed run)');
    const ids = options.idSeed === undefined ? null : new EntryScopedIds(options.idSeed);
    const resolved = resolveRun(options, runLoopToEnd, ids?.next);
    const fingerprint = codeFingerprint(resolved.tools, options.codeVersion);
    const start = jsonCopy(await options.journal.run<StartEntry>('start', async () => ({ params: runParamsOf(options, resolved), fingerprint }), { local: true }));
    checkFingerprint(start.fingerprint, fingerprint);
    return new DurableRun(options, resolved, watchRun(options, resolved.config, start.params), start.params, ids);
  });
}

/**
 * @example
 * const journal = new MemoryJournal();
 * for await (const item of durableQuery({ prompt: 'hi', tools, journal })) console.log(item.type);
 * // after a crash: durableQuery({ prompt: 'hi', tools, journal: new MemoryJournal(journal.entries) })
 */
export async function* durableQuery(options: DurableQueryOptions): AsyncGenerator<QueryItem, Terminal, undefined> {
  const { journal, codeVersion, idSeed, ...query } = options;
  const engine = await engineOptionsOf(query, 'durableQuery()');
  return yield* durableRunLoop({ ...engine, journal, ...(codeVersion === undefined ? {} : { codeVersion }), ...(idSeed === undefined ? {} : { idSeed }) });
}

/** Runs `durableQuery()` to its end and collects what it yielded. */
export function runDurableQuery(options: DurableQueryOptions): Promise<{ items: QueryItem[]; terminal: Terminal }> {
  return collectToEnd(durableQuery(options));
}
