/**
 * The latest instance of each class the shell makes anew in every run or every turn (the interpreter, its queue,
 * the streaming tool executor, its controllers and cancel group, the tool-use id registry), kept until the next one
 * of its class replaces it.
 *
 * Why: V8 holds a class instance's hidden class (its fields, added one by one), and those of the objects it made
 * along the way, only while some object has it. When a run's objects are all garbage, a full GC drops those hidden
 * classes, and every property access that had seen them starts over: the next run makes them again and misses in
 * hundreds of inline caches (`--log-ic`: 430 misses per ten-turn run right after a full GC, 23 without). Keeping
 * the latest instance of each keeps them alive. What it costs: the latest instance stays reachable until the next
 * one replaces it; the interpreter lets go of its run's data when the run ends (`RunCore.shutdown`), the others hold
 * at most one turn's tool calls (docs/architecture.md, "Shapes that outlive a run").
 */
const latest = new Map<Function, object>();

/**
 * Keeps `instance` as the latest of `type` (replacing the one before). The class is named by the caller: reading
 * `instance.constructor` would be one more property load that meets every kept class's hidden class.
 */
export function keepLatest(type: Function, instance: object): void {
  latest.set(type, instance);
}

/** The latest kept instance of `type`, if any (for tests). */
export function keptInstanceOf(type: Function): object | undefined {
  return latest.get(type);
}
