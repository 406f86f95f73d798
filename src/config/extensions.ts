/**
 * The Extensions (docs/loop.md §11): every place where turnloop's default behaviour differs from Claude Code's public
 * build, or goes beyond it. `docs/fidelity.md` is generated from this list (`npm run docs:fidelity`) and
 * `test/unit/fidelity-doc.test.ts` keeps the two equal, checks that every config switch exists in
 * `DEFAULT_CONFIG` and that every pinning test exists.
 *
 * Adding a row: append an entry below (keep ids unique, camelCase), name the test that pins the behaviour (its
 * file and the exact title given to `it(...)`), run `npm run docs:fidelity`, commit both files.
 */

import { AGENT_SDK_EXTENSIONS } from './agent-sdk-extensions.ts';

export interface Extension {
  /** Stable name, cited in code comments as "Extension `<id>`". */
  id: string;
  /** What the original (Claude Code's public build) does. */
  original: string;
  /** What turnloop does by default. */
  turnloop: string;
  /** Why the difference exists. */
  why: string;
  /** The config key (dotted path into `LoopConfig`) that switches it, or null when it needs no switch. */
  configSwitch: string | null;
  /** The test that pins it: a file under `test/` and the exact title of one `it(...)` in it. */
  test: { file: string; name: string };
}

export const EXTENSIONS: readonly Extension[] = [
  {
    id: 'terminalApiError',
    original: 'A run that ends on an API error (auth, rate limit, exhausted retries, refusal...) returns `{reason: "completed"}`; the error is only in the messages.',
    turnloop: 'Same reason, plus `apiError {kind, text, status?, errorType?}` on the Terminal; `simulate --strict` counts such a run as a failure.',
    why: 'An embedder (the CLI exit code, CI) can tell a clean ending from a failed one without scanning messages.',
    configSwitch: null,
    test: { file: 'test/unit/api-error-endings.test.ts', name: 'a 401 answer (an API-error message) ends completed with the error on the Terminal, after stop-failure hooks' },
  },
  // The headless executable's (src/agent-sdk/), kept in their own file.
  ...AGENT_SDK_EXTENSIONS,
  {
    id: 'maxStopHookBlocking',
    original: 'No bound: a stop hook that always blocks loops forever.',
    turnloop: 'After `limits.maxStopHookBlocking` (25) blocking continuations in one run: a `cap_reached` warning and `stop_hook_prevented {cap}` (docs/loop.md §9.10).',
    why: 'Every run ends within a number of model calls computed from config.',
    configSwitch: 'limits.maxStopHookBlocking',
    test: { file: 'test/unit/transitions-caps.test.ts', name: 'limits.maxStopHookBlocking ends a stop hook that always blocks as stop_hook_prevented with its cap' },
  },
  {
    id: 'maxModelCalls',
    original: 'No bound on the model calls of one run (only `maxTurns`, which continues such as stop-hook blocking do not count).',
    turnloop: 'Before call `limits.maxModelCalls` + 1 (1,000; left at its default, it grows to `maxTurns × modelCallsPerTurn(limits)` so it never ends a run `maxTurns` allows): a `cap_reached` warning and `max_turns {cap}` (docs/loop.md §9.10).',
    why: 'Every run ends within a number of model calls computed from config.',
    configSwitch: 'limits.maxModelCalls',
    test: { file: 'test/unit/transitions-caps.test.ts', name: 'limits.maxModelCalls ends the run as max_turns with cap maxModelCalls before one more call' },
  },
  {
    id: 'terminalTokenBudget',
    original: 'When a token-budget turn stops after continuing (or on diminishing returns) it only logs the decision.',
    turnloop: 'Emits nothing either; the decision `{pct, continuations, diminishing}` is kept as `tokenBudget` on the `completed` Terminal, so it is in the step record and the session log.',
    why: 'The decision is observable without a logger.',
    configSwitch: null,
    test: {
      file: 'test/unit/transitions-token-budget.test.ts',
      name: 'continues while under 90% of the budget and keeps the percentage on the Terminal when it stops, emitting nothing',
    },
  },
  {
    id: 'abortEndsTurn',
    original: 'An abort before any stop hook answered falls through to the token-budget check, which may start another iteration whose aborted model call then ends it `aborted_streaming`.',
    turnloop: 'The same fall-through, but the token budget never continues an aborted turn: it ends `completed`.',
    why: 'No model call is started on an already aborted signal.',
    configSwitch: null,
    test: { file: 'test/unit/transitions-aborts.test.ts', name: 'a token budget does not continue a turn whose stop hooks were aborted' },
  },
  {
    id: 'fallbackAnyModel',
    original: 'Only some models fall back on overload (the public build limits it to Opus models unless told otherwise), a product policy.',
    turnloop: 'Any model falls back when the run has a `fallbackModel` (and not twice). To keep a model from falling back, pass no `fallbackModel` for it.',
    why: 'The loop does not encode a product\'s model policy; the caller decides per run.',
    configSwitch: null,
    test: {
      file: 'test/unit/transitions-sampling.test.ts',
      name: 'answers the attempt’s tool_uses, warns naming both models and retries on the fallback model, thinking kept',
    },
  },
  {
    id: 'ownMessageTexts',
    original: 'Its own wording for engine-written messages (interruption, recovery prompt, budget nudge, API errors, warnings).',
    turnloop: 'The same messages at the same points, with the same kinds and flags, in turnloop\'s own words.',
    why: 'No prose is copied from the original (docs/loop.md, introduction).',
    configSwitch: null,
    test: { file: 'test/unit/terminals.test.ts', name: 'aborted_streaming: an abort while the model streams ends the run with the interrupted message' },
  },
  {
    id: 'mcpInputValidation',
    original: "An MCP tool's input goes to its server as the model wrote it; the server's own validation error comes back as the result.",
    turnloop: "The input is first checked against the server's JSON Schema (Ajv); a violation never reaches the server and is explained to the model like a zod tool's (`- a: must be number`).",
    why: 'One error format for every tool, and no round trip for an input the schema already rules out.',
    configSwitch: null,
    test: { file: 'test/interop/mcp-everything.test.ts', name: 'turns text, image, resource, link, structured and progress results into tool results, and explains bad input' },
  },
  {
    id: 'mcpAnnotationPermissions',
    original: 'Every MCP tool call needs permission (unless a rule allows the tool), whatever its annotations say.',
    turnloop: "`readOnlyHint: true` makes the tool read-only and concurrency-safe and `destructiveHint: false` lets it run unasked; any other MCP tool answers `ask` (denied when nobody approves; `turnloop run` asks, as for Edit).",
    why: "The annotations are the server's statement of what a tool does; the issue maps them to turnloop's flags.",
    configSwitch: null,
    test: { file: 'test/interop/mcp-filesystem.test.ts', name: 'reads without asking, creates a non-destructive directory, and denies a destructive write nobody approved' },
  },
  {
    id: 'uniqueToolUseIds',
    original: 'Trusts the API to send unique tool_use ids; a repeated id would reach the history (and the next request, which the API rejects) unless normalisation drops the duplicate block, whose call then never runs.',
    turnloop: 'As the model\'s messages arrive, a tool_use id already used in the run (or not of the API\'s form) becomes `<id>_<n>`, before the reducer and the log see it: every call runs and is answered under its own id.',
    why: 'Malformed model output must never crash the loop nor produce a history the API rejects (issue 15); the logged id is the new one, so replay folds the same history.',
    configSwitch: null,
    test: { file: 'test/adversarial/model-output.test.ts', name: 'a reply repeating a tool_use id: each call runs under its own id and the next request is well-formed' },
  },
  {
    id: 'refuseUnrecordableModelOutput',
    original: 'Takes whatever the API stream parses to: negative or non-finite usage counts and tool inputs of any depth reach the history and the transcript.',
    turnloop: 'A model event that the session log could not give back (a token count below 0 or above 2^53 − 1, a number JSON cannot hold such as `1e400`, nesting deeper than 256 levels) becomes a `model_error` saying what was wrong, as it arrives, before the reducer and the log see it; the run ends as a failed model call.',
    why: 'What the recorder writes, replay, resume and viz must read (issue 29): otherwise a run completes and leaves a log every reader refuses. Such replies come from broken proxies, not from the API.',
    configSwitch: null,
    test: { file: 'test/adversarial/log-readback.test.ts', name: 'a tool input nested 600 levels deep: a model_error naming the depth; the log replays and renders' },
  },
  {
    id: 'durableToolsInCallOrder',
    original: 'Concurrency-safe tool calls run up to 10 at once, and streamed tool calls start while the model still streams.',
    turnloop: 'Under the durable driver (`turnloop/durable`, `turnloop/dbos`) each tool call runs alone, in call order, once the model reply is journaled; `query()` is unchanged. So a call an abort catches during tools has not started yet: its result is the not-started cancellation where `query()`, which had started it, gives the interrupted one.',
    why: 'Each call is its own journal entry at a fixed position, so a recovery answers them in the recorded order and re-runs only the unanswered ones; the transcript is the same.',
    configSwitch: null,
    test: { file: 'test/unit/durable/durable-driver.test.ts', name: 'runs concurrency-safe tool calls one at a time, in call order, after the reply' },
  },
  {
    id: 'durableInterruptedToolResult',
    original: 'No recovery: a process that dies mid-tool loses the run.',
    turnloop: 'A recovered durable run answers a call of a tool not marked `idempotent` that a crash interrupted (started, no journaled result) with an error result saying its outcome is unknown, instead of running it again.',
    why: 'Running a side effect twice (a payment, a deploy) is worse than telling the model it may have happened.',
    configSwitch: null,
    test: { file: 'test/unit/durable/crash-recovery.test.ts', name: 'are never run again after a crash between their start and their journaled result' },
  },
  {
    id: 'agentToolTaskInput',
    original: "The Task tool's `subagent_type` picks one of the configured agent definitions and its `model` (sonnet, opus, haiku) overrides that agent's model.",
    turnloop: 'An agent tool (`defineAgentTool`) is one agent: it accepts `subagent_type`, `model` and `run_in_background` in its input, so recorded Task calls validate, and runs its own prompt, tools and model, to its end unless it was given `background` (Extension `backgroundAgentTool`).',
    why: 'Agents are defined in code, one tool each; imported Claude Code sessions call them with the Task input as recorded.',
    configSwitch: null,
    test: { file: 'test/unit/agents/task-input.test.ts', name: "accepts Claude Code's Task input (subagent_type, model) and runs its own agent and model" },
  },
  {
    id: 'backgroundAgentTool',
    original: 'A subagent call runs its child to the end; the child\'s report is the call\'s result (docs/loop.md §7.2).',
    turnloop: 'Opt-in (`defineAgentTool({ background })`): a call with `run_in_background: true` returns at once with the launch text of Claude Code 2.1.334. In an SDK session the headless Task tool does as that executable does: a call runs in the background unless its input says `run_in_background: false`, the turn ends with its result, and the child\'s `<task-notification>` starts a turn of its own when the child ends (a second result). In a `query()` run, which has no next turn, `createBackgroundAgents()` delivers it among the attachments collected after that batch, waiting for the child, so it is always in the next request.',
    why: 'The real executable runs such calls in the background. A notification turn is recorded like any turn (its prompt is the notification); in a `query()` run, delivering it through `attachments_collected` keeps it an event of the log, so the run replays.',
    configSwitch: null,
    test: { file: 'test/unit/agents/background-agents.test.ts', name: 'runs a run_in_background call in the background: launch text at once, the report as a notification, recorded and replayed' },
  },
  {
    id: 'maxBudgetUsd',
    original: 'No spend cap in the loop: a run costs what its model calls cost. (The SDK\'s `maxBudgetUsd` is checked outside the loop, by claude\'s SDK layer, once a reply is complete: the turn ends with that reply and its tools do not run; turnloop\'s headless mode does the same, src/agent-sdk/headless-session.ts.)',
    turnloop: 'With `limits.maxCostUsd` > 0 (default 0, off): before a model call whose worst case (the largest prompt billed as cache writes and the largest `max_tokens`, docs/bounds.md) could take the spend so far past the cap, a `cap_reached` warning and the Terminal `max_budget_usd {costUsd, maxCostUsd}`, every tool_use answered. `turnloop run --max-budget-usd`.',
    why: 'A hard ceiling on the main loop spend, known before the run and never passed, not learned from an invoice.',
    configSwitch: 'limits.maxCostUsd',
    test: { file: 'test/unit/bounds/spend-cap.test.ts', name: 'ends the run max_budget_usd before a call that could pass the cap, every tool_use answered' },
  },
  {
    id: 'cliUnreachableRetries',
    original: 'A request that gets no HTTP answer (connection refused, host not found), and a 401, is retried on the full schedule: 10 retries, backoff from 0.5 s doubling to 32 s, about 2.7 minutes before the error shows.',
    turnloop: '`query()` and SDK sessions keep that schedule. `turnloop run` retries a refused connection or an unresolvable host only twice (about 1.5 s), and a 401 not at all, unless `--max-retries N` is given; every retry line and the final error name the URL and the cause. Any other failure (5xx, 429, 529, timeouts, resets) keeps the full schedule.',
    why: 'At a terminal such an error is almost always a mistyped or dead `ANTHROPIC_BASE_URL` or a wrong key, which no wait fixes; a newcomer should learn that in seconds (issue 31).',
    configSwitch: null,
    test: { file: 'test/unit/cli/run-unreachable.test.ts', name: 'a refused connection fails in seconds after 2 retries, each line and the final message naming the URL and the cause' },
  },
  {
    id: 'shellLikeSiblingCancel',
    original: 'Only an error of the tool named Bash cancels its siblings, and only in the streaming executor (`StreamingToolExecutor.ts:354-363`); the non-streaming batches cancel nothing on an error.',
    turnloop: 'The same by default (`isShellLike` defaults to `name === "Bash"`); a tool defined with `isShellLike: true` (a shell of another name) cancels its siblings too, in the streaming executor. Without it (`features.streamingToolExecution: false`, and in SDK sessions) no error cancels a sibling, as in the original.',
    why: 'A custom shell tool has the same implicit dependency chains between commands as Bash; the flag lets its author say so.',
    configSwitch: null,
    test: { file: 'test/unit/tools/streaming-executor.test.ts', name: 'a shell-like error cancels running, queued and later siblings, each with one result saying so' },
  },
  {
    id: 'timeBasedMicrocompactOn',
    original: 'Time-based microcompact sits behind a server-side flag whose built-in default is off (`services/compact/timeBasedMCConfig.ts`: enabled false, 60 minutes, keep 5); what first-party users get is decided by the server.',
    turnloop: 'On by default (`features.microcompact`), with the same 60 minutes and keep 5; it only ever runs in main-thread runs (`querySource` starting with `repl_main_thread`), never in SDK runs (the default source) nor in agents.',
    why: "The flag's served value is not public; the rule only clears results whose prompt cache has expired, so it never costs a cache miss.",
    configSwitch: 'features.microcompact',
    test: { file: 'test/unit/query-source-layers.test.ts', name: 'time-based microcompact is on by default for the main thread (Extension timeBasedMicrocompactOn)' },
  },
];

/** The Markdown table of `docs/fidelity.md`, one row per Extension. Pure. */
export function renderExtensionTable(extensions: readonly Extension[] = EXTENSIONS): string {
  const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
  const rows = extensions.map((e) =>
    [
      `\`${e.id}\``,
      cell(e.original),
      cell(e.turnloop),
      cell(e.why),
      e.configSwitch === null ? '—' : `\`${e.configSwitch}\``,
      `\`${e.test.file}\` › ${cell(e.test.name)}`,
    ].join(' | '),
  );
  return ['| extension | original | turnloop | why | switch | pinned by |', '|---|---|---|---|---|---|', ...rows.map((r) => `| ${r} |`)].join('\n');
}
