/**
 * Fewer commits per turn: entries whose work touches nothing outside the process (the run's start, context layers,
 * attachment collection) are held in memory and committed together with the next entry that does (a model call, a
 * tool call, a tool's start marker). A turn of one model call and one tool call then costs two commits.
 *
 * Why this is safe: a held entry is lost only by a crash before the next commit, and then nothing after it was
 * committed either, so recovery simply runs it again, live, as it would have the first time. Nothing in the world
 * depended on it (its work is local), and the first commit after it records the values the run went on with.
 *
 * How it is stored: the committing entry's value becomes `{ "turnloop.held": [held entries], value }`. `expandGroups`
 * turns stored steps back into the flat list of entries in call order (what `MemoryJournal`, the export and the
 * journal's readers expect). Recovery needs the steps recorded so far up front (the held entries come before the
 * step that carries them): they are read once, when the run starts, from outside the workflow.
 */
import type { Journal, JournalEntry, JournalRunOptions } from './journal.ts';
import { JournalDivergenceError } from './journal.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';

const HELD = 'turnloop.held';
/** The step that commits what is still held when a run ends. */
const FINAL_COMMIT = 'commit';

interface Group {
  [HELD]: JournalEntry[];
  value: unknown;
}

function isGroup(value: unknown): value is Group {
  return typeof value === 'object' && value !== null && Array.isArray((value as Partial<Group>)[HELD]);
}

/** The flat entries, in call order, of stored steps that may carry held entries. */
export function expandGroups(steps: readonly JournalEntry[]): JournalEntry[] {
  return steps.flatMap((step) => {
    if (!isGroup(step.value)) return [step];
    const own = step.name === FINAL_COMMIT ? [] : [{ name: step.name, value: step.value.value }];
    return [...step.value[HELD], ...own];
  });
}

interface Planned {
  entry: JournalEntry;
  /** True when the entry has a step of its own (else it was held and rides in a later step). */
  ownStep: boolean;
}

function plan(steps: readonly JournalEntry[]): Planned[] {
  return steps.flatMap((step): Planned[] => {
    if (!isGroup(step.value)) return [{ entry: step, ownStep: true }];
    const held = step.value[HELD].map((entry) => ({ entry, ownStep: false }));
    return step.name === FINAL_COMMIT ? held : [...held, { entry: { name: step.name, value: step.value.value }, ownStep: true }];
  });
}

export class GroupCommitJournal implements Journal {
  private readonly recorded: Planned[];
  private position = 0;
  private held: JournalEntry[] = [];

  /** `inner` commits one step per call; `recordedSteps` are its steps so far (empty for a new run). */
  constructor(private readonly inner: Journal, recordedSteps: readonly JournalEntry[]) {
    this.recorded = plan(recordedSteps);
  }

  async run<T>(name: string, work: () => Promise<T>, options: JournalRunOptions = {}): Promise<T> {
    const position = this.position++;
    const recorded = this.recorded[position];
    if (recorded) {
      if (recorded.entry.name !== name) throw new JournalDivergenceError(position, recorded.entry.name, name);
      if (!recorded.ownStep) return structuredClone(recorded.entry.value) as T;
      const stored = await this.inner.run<unknown>(name, () => Promise.reject(new TurnloopError('JOURNAL_ENTRY_MISSING', `journal step '${name}' was recorded but not found`)));
      return structuredClone(isGroup(stored) ? stored.value : stored) as T;
    }
    if (options.local) {
      const value = await work();
      this.held.push({ name, value: structuredClone(value) });
      return value;
    }
    const held = this.held;
    this.held = [];
    let ran: { value: T } | null = null;
    const stored = await this.inner.run<unknown>(name, async () => {
      const value = await work();
      ran = { value };
      return held.length > 0 ? { [HELD]: held, value } : value;
    });
    return ran !== null ? (ran as { value: T }).value : (structuredClone(isGroup(stored) ? stored.value : stored) as T);
  }

  async flush(): Promise<void> {
    if (this.held.length === 0) return;
    const held = this.held;
    this.held = [];
    await this.inner.run(FINAL_COMMIT, async () => ({ [HELD]: held, value: null }));
  }
}
