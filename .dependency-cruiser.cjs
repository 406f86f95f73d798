/**
 * The layers of src/ (docs/architecture.md), checked by dependency-cruiser: `npm run check:layers`, and
 * test/unit/layers.test.ts inside `npm test`. Every folder of src/ has its own rank, bottom first; a file may import
 * its own folder or a folder below it, never one above or beside-and-later, so no two folders import each other.
 * A new folder gets its place in LAYERS (the test fails until it has one).
 */
const LAYERS = [
  'errors', //    the one error base
  'messages', //  message types and the factory that makes them
  'config', //    config types, defaults, schemas, extensions
  'data', //      state, events, effects, outcomes, their schemas; the shapes the shell plugs in (deps)
  'rules', //     pure rules: tokens, thresholds, budgets, batching, costs, edits
  'machine', //   the chart, its guards and actions, the effect protocol, every context conversion
  'reducer', //   step(), the stepper and its macrostep memo: the one folder that runs the machine
  'context', //   context-management layers and their runtime cells
  'model', //     the model adapter (Anthropic Messages API)
  'tools', //     the tool runtime and the built-in tools
  'runtime', //   the effect executors, default deps, query options, compaction
  'drivers', //   what runs a loop: the interpreter, runLoop, the event channel
  'agents',
  'fake-api',
  'mcp',
  'replay',
  'otel',
  'scenario',
  'testing',
  'bounds',
  'claude',
  'viz',
  'inspector',
  'api', //       query(): a run with record, telemetry, inspect
  'durable', //   durableQuery(): the same run on a journal
  'dbos', //      durable runs on DBOS workflows
  'internal',
  'agent-sdk',
  'cli',
];

const escape = (name) => name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');

/** One rule per folder: nothing from a folder to any folder ranked above it. */
const upward = LAYERS.slice(0, -1).map((folder, rank) => ({
  name: `layer-${folder}`,
  comment: `src/${folder} (rank ${rank}) imports only itself and the folders below it: ${LAYERS.slice(0, rank).join(', ') || 'none'}`,
  severity: 'error',
  from: { path: `^src/${escape(folder)}/` },
  to: { path: `^src/(${LAYERS.slice(rank + 1).map(escape).join('|')})/` },
}));

module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'no-entry-point-from-a-layer',
      comment: 'src/index.ts (the root entry point) sits above every folder',
      severity: 'error',
      from: { path: '^src/[^/]+/' },
      to: { path: '^src/index\\.ts$' },
    },
    {
      name: 'no-unresolvable',
      comment: 'a relative import that names no file would hide an edge from the rules above',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true, path: '^\\.' },
    },
  ],
  options: {
    // TypeScript 7 has no compiler API for dependency-cruiser to parse with; swc parses the sources instead.
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
  },
};

// For test/unit/layers.test.ts (every folder has a rank); not enumerable, so dependency-cruiser's own schema does not see it.
Object.defineProperty(module.exports, 'LAYERS', { value: LAYERS, enumerable: false });
