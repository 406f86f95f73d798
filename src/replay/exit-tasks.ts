/**
 * What this process does for its session logs as it exits, in the order that keeps "one writer per log": first
 * every writer's held lines (`flush`), then every lock (`release`). Node runs `exit` listeners in the order they
 * were added and a log is locked before its writer opens, so a listener each would remove the lock first: another
 * process waiting for it could start appending while the last lines were still going out.
 */
export type ExitPhase = 'flush' | 'release';

const tasks: Record<ExitPhase, Set<() => void>> = { flush: new Set(), release: new Set() };
let listening = false;

/** Runs every task of a phase, even after one throws; the first error is thrown afterwards. */
function runPhase(phase: ExitPhase): void {
  let failure: unknown = null;
  for (const task of tasks[phase]) {
    try {
      task();
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure !== null) throw failure;
}

function runExitTasks(): void {
  try {
    runPhase('flush');
  } finally {
    runPhase('release');
  }
}

/** Runs `task` when the process exits, in `phase` (a task added twice runs once). */
export function addExitTask(phase: ExitPhase, task: () => void): void {
  tasks[phase].add(task);
  if (listening) return;
  listening = true;
  process.on('exit', runExitTasks);
}

export function removeExitTask(phase: ExitPhase, task: () => void): void {
  tasks[phase].delete(task);
}
