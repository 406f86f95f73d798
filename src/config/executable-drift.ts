/**
 * Drift: where the real `claude` executable no longer does what the original loop (the reference, Claude Code
 * 2.1.88, docs/loop.md) does. turnloop follows the original; each row says what the executable does instead and the
 * releases it was seen in, like the constants table (`src/claude/version-constants.ts`).
 * `test/agent-sdk/request-sequence.test.ts` runs the same SDK program through both executables on one fake API and
 * names, per situation, the drift rows that explain every difference it still sees; `docs/fidelity.md` lists them
 * (generated, `npm run docs:fidelity`). Not Extensions: turnloop's behaviour is the original's here.
 *
 * Adding a row: observe it side by side (a situation of the test that names it), then add it here with the release
 * the executable was seen in and the reference release that does otherwise.
 */
export interface ExecutableDrift {
  /** Stable name, used by the side-by-side test. */
  id: string;
  /** What the original does (and turnloop with it). */
  original: string;
  /** What the real executable does instead. */
  executable: string;
  /** The reference release that does what `original` says, and the executable's releases the drift was seen in. */
  releases: { original: string; seen: readonly string[] };
  /** The situation of the side-by-side test that shows it (its program's name). */
  situation: string;
}

/** The original's release turnloop follows (docs/loop.md cites its source). */
export const REFERENCE_RELEASE = '2.1.88';

/** The executable release of the side-by-side suite (test/agent-sdk/package.json pins its SDK, 0.3.334). */
export const SEEN_RELEASE = '2.1.334';

const releases = { original: REFERENCE_RELEASE, seen: [SEEN_RELEASE] } as const;

export const EXECUTABLE_DRIFT: readonly ExecutableDrift[] = [
  {
    id: 'adaptiveThinkingByDefault',
    original: 'A request carries `thinking` only when the run asks for thinking, and no `output_config`.',
    executable: 'Every request carries `thinking: {type: "adaptive"}` (with a `display`) and `output_config: {effort: "high"}` (claude-sonnet-4-6) with no thinking or effort option given; a model without adaptive thinking (claude-haiku-4-5, as a fallback model) gets `thinking: {type: "enabled", budget_tokens: max_tokens - 1}` instead.',
    releases,
    situation: 'a failed Bash beside a Read',
  },
  {
    id: 'sessionContextReminders',
    original: 'An SDK session sends the conversation as the program gave it; context the program wants goes in its system prompt.',
    executable: 'The first user turn opens with eight `<system-reminder>` text blocks (environment, model name, deferred tools, agent types, skills, token total, date, commit attribution); a later user turn may open with one (the token total).',
    releases,
    situation: 'a failed Bash beside a Read',
  },
  {
    id: 'recoveryAsSystemReminder',
    original: 'After a reply cut at `max_tokens`, the recovery prompt is a meta user message of plain text (docs/loop.md §4.9).',
    executable: 'The recovery prompt is a `<system-reminder>` text block appended to the last user turn.',
    releases,
    situation: 'max_tokens inside a tool_use block',
  },
  {
    id: 'emptyReplyNudge',
    original: 'A reply with no content block ends the turn (`stop_reason: end_turn`).',
    executable: 'Asks again: the same request plus a `<system-reminder>` block telling the model its previous response was empty.',
    releases,
    situation: 'an empty reply',
  },
  {
    id: 'refusalNudge',
    original: 'A `refusal` stop reason is an API error: the turn ends with it (`terminal_reason: api_error`, `is_error: true`).',
    executable: 'Keeps the refused text, asks again with a user turn of one `<system-reminder>` saying the response was stopped, and ends with the next answer (`success`, `end_turn`).',
    releases,
    situation: 'a refusal',
  },
  {
    id: 'partialBlockOnInterrupt',
    original: 'A block the stream never completed produces no message (docs/loop.md §1): after an interrupt mid-text the next request has no assistant turn for it.',
    executable: 'The streamed part of the interrupted text block becomes an assistant message (`aborted: true`), sent in the next request before the interruption note. turnloop\'s SDK session does the same (Extension `sdkPartialReplyOnInterrupt`).',
    releases,
    situation: 'an interrupt while streaming, then a second prompt',
  },
];

/** The Markdown table of the drift section of `docs/fidelity.md`. Pure. */
export function renderDriftTable(drift: readonly ExecutableDrift[] = EXECUTABLE_DRIFT): string {
  const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
  const rows = drift.map((d) =>
    [`\`${d.id}\``, cell(d.original), cell(d.executable), `${d.releases.original} does not; seen in ${d.releases.seen.join(', ')}`, cell(d.situation)].join(' | '),
  );
  return ['| drift | original (and turnloop) | real `claude` | releases | situation |', '|---|---|---|---|---|', ...rows.map((r) => `| ${r} |`)].join('\n');
}
