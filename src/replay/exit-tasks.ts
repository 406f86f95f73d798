/**
 * What this process does for its session logs as it exits, in the order that keeps "one writer per log": first
 * every writer's held lines (`flush`), then every lock (`release`). Node runs `exit` listeners in the order they
 * were added and a log is locked before its writer opens, so a listener each would remove the lock first: a
 * process that took the lock at that moment (a retry, the next command) would append beside the last lines.
 */
export type ExitPhase = 'flush' | 'release';

const tasks: Record<ExitPhase, Set<() => void>> = { flush: new Set(), release: new Set() };
let listening = false;

/**
 * Every task of both phases runs, whatever throws. A failure is printed and makes the exit status 1 instead of
 * being thrown: a throwing `exit` listener would skip the listeners after it (the tools' child-process killers).
 */
function runExitTasks(): void {
  for (const phase of ['flush', 'release'] as const) {
    for (const task of tasks[phase]) {
      try {
        task();
      } catch (error) {
        process.stderr.write(`turnloop: at exit, ${phase === 'flush' ? 'writing a session log' : 'unlocking a session log'} failed: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exitCode ||= 1;
      }
    }
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
