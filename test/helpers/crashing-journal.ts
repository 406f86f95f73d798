import type { Journal, JournalEntry } from '../../src/durable/journal.ts';

export class SimulatedCrash extends Error {}

/** A journal that dies at `crashAt`: before running the work, or after it ran but before its result was kept. */
export class CrashingJournal implements Journal {
  readonly entries: JournalEntry[] = [];
  private position = 0;
  constructor(private readonly crashAt: number, private readonly window: boolean) {}

  async run<T>(name: string, work: () => Promise<T>): Promise<T> {
    const position = this.position++;
    if (position === this.crashAt && !this.window) throw new SimulatedCrash(`crash before ${name}`);
    const value = await work();
    if (position === this.crashAt) throw new SimulatedCrash(`crash after ${name} ran`);
    this.entries.push({ name, value: structuredClone(value) });
    return value;
  }
}
