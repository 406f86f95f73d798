/**
 * The Extensions of the headless executable (`src/agent-sdk/`, docs/agent-sdk.md): where `turnloop` driven by the
 * Claude Agent SDK or run as `turnloop -p` differs from the real `claude` executable. Listed in `EXTENSIONS`
 * (`./extensions.ts`), which generates `docs/fidelity.md`.
 */
import type { Extension } from './extensions.ts';

export const AGENT_SDK_EXTENSIONS: readonly Extension[] = [
  {
    id: 'sdkUnknownFlagsIgnored',
    original: "`claude` refuses an option it does not know (\"unknown option\") and exits.",
    turnloop: 'Names every flag it does not implement once on stderr (with its value) and runs without it.',
    why: 'The SDK adds flags with every release; refusing them would break every SDK upgrade.',
    configSwitch: null,
    test: { file: 'test/unit/agent-sdk/headless-protocol.test.ts', name: 'names flags it does not implement once on stderr and runs anyway' },
  },
  {
    id: 'sdkSessionLog',
    original: 'A session is a transcript JSONL under `~/.claude/projects/<cwd>/<session id>.jsonl`, appended turn by turn.',
    turnloop: 'A session is a turnloop session log `.turnloop/sessions/<session id>.jsonl` under the working directory (replay, viz, inspect read it); each turn is a run from the whole conversation, and its log replaces the previous turn\'s.',
    why: 'Every SDK session becomes replayable and drawable with the tools turnloop already has.',
    configSwitch: null,
    test: { file: 'test/unit/agent-sdk/headless-protocol.test.ts', name: 'records the session as a turnloop session log named by its id, which replays to the same ending' },
  },
  {
    id: 'sdkPermissionDenialText',
    original: 'claude 2.1.334 words each denial by its reason: the program\'s deny message as given, `Permission to use Bash with command <command> has been denied.` for a Bash deny rule, its `dontAsk` text, "A variable in this command can\'t be checked before it runs", `PreToolUse:<tool> hook error: [<command>]: <stderr>` for a settings command hook that exits 2; a call nobody can be asked about is worded by its command classifier (`touch in \'<path>\' needs approval. ...`), plan mode by its auto-mode check.',
    turnloop: 'The SDK session gives those five texts as claude does (src/agent-sdk/permission-denial-texts.ts); every other denial (nobody to ask, a deny rule on another tool, plan mode, a program hook\'s deny) is `Permission to use <tool> was denied: <reason>`.',
    why: 'The classifier\'s and the auto-mode check\'s wordings follow rules turnloop does not have; one wording for those still tells the model which tool was refused and why.',
    configSwitch: null,
    test: { file: 'test/unit/agent-sdk/permission-denial-texts.test.ts', name: "a call nobody can be asked about, without a variable, keeps turnloop's words (claude's come from its command classifier)" },
  },
  {
    id: 'sdkBypassAsRoot',
    original: 'Refuses `--permission-mode bypassPermissions` (and `--dangerously-skip-permissions`) when run as root.',
    turnloop: 'Runs in that mode as any user: every call runs without asking.',
    why: 'Offline test runs of SDK programs often run as root (CI containers); the mode is the caller\'s explicit choice.',
    configSwitch: null,
    test: { file: 'test/unit/agent-sdk/headless-endings.test.ts', name: 'bypassPermissions runs every call without asking, also as root (the real executable refuses root)' },
  },
  {
    id: 'sdkThinkingOnlyWhenAsked',
    original: 'Asks for `thinking: {type: \'adaptive\'}` and its default `output_config.effort` (`high`; `medium` on the 5.5 family; none on models without effort) on every request, also when the program sets no `thinking` and no `effort`.',
    turnloop: 'Sends `thinking` and `effort` only when the program sets them (`--thinking`, `--max-thinking-tokens`, `--effort`), then as claude does.',
    why: 'With thinking on, a scripted tool call must open with a thinking block or the API refuses the next request; scripts written for turnloop (docs/agent-sdk.md) have none.',
    configSwitch: null,
    test: { file: 'test/unit/agent-sdk/request-options.test.ts', name: '--thinking and --max-thinking-tokens set the request thinking as claude does' },
  },
  {
    id: 'sdkInstructionsInWorkspace',
    original: 'Reads the project CLAUDE.md of the working directory and of every directory above it, up to the root.',
    turnloop: 'Reads the project and local memory files of the working directory only (confined to it as the file tools are); the user source is the config directory.',
    why: 'Files above the workspace are not the program\'s to read; skills and instructions are data from the workspace.',
    configSwitch: null,
    test: { file: 'test/unit/agent-sdk/skills.test.ts', name: 'memory files above the working directory are not read' },
  },
  {
    id: 'sdkSkillBodyAsContext',
    original: 'Sends a launched skill\'s body to the model as a plain text block after the Skill tool_result.',
    turnloop: 'Sends it as a context attachment (`<context name="skill">...</context>`) after the tool_result; the SDK program sees the same user message as with claude.',
    why: 'The loop carries text it adds between tool results as attachments (src/tools/tool-hooks.ts); the program-visible messages are the same.',
    configSwitch: null,
    test: { file: 'test/unit/agent-sdk/skills.test.ts', name: 'the skill body reaches the model in the next request' },
  },
  {
    id: 'sdkJsonSchemaDraft2020',
    original: 'claude 2.1.334 checks an `outputFormat` schema as draft-07 and refuses one whose `$schema` names draft 2020-12 (what zod 4\'s `toJSONSchema` writes by default): the process exits 1 with "--json-schema is not a valid JSON Schema: no schema with key or ref ...".',
    turnloop: 'A schema whose `$schema` names draft 2020-12 is read and checked by that draft; any other is checked as draft-07, as claude does.',
    why: 'The SDK\'s structured-output guide builds schemas with zod; refusing its default output would break the program on a valid schema.',
    configSwitch: null,
    test: { file: 'test/unit/agent-sdk/structured-output-errors.test.ts', name: 'a schema that declares draft 2020-12 (what zod 4 toJSONSchema writes by default) is accepted and checked by that draft' },
  },
  {
    id: 'sdkPartialReplyOnInterrupt',
    original: 'A block the stream never completed produces no message (docs/loop.md §1): after an interrupt mid-text nothing of the reply is kept.',
    turnloop: 'In an SDK session (stream-json), the text streamed before the interrupt is an assistant message marked `aborted: true`, written before the interruption note and sent in the next request, as claude 2.1.334 does (drift `partialBlockOnInterrupt`); a partial tool_use or thinking block is dropped. The loop and its other callers keep the original\'s.',
    why: 'SDK programs (chat front ends) show what the user saw stream before pressing stop, and the model sees what it had said; the SDK\'s reference is the real executable.',
    configSwitch: null,
    test: { file: 'test/unit/agent-sdk/partial-reply.test.ts', name: 'an interrupt mid-text writes the streamed text as an aborted assistant message and sends it in the next request' },
  },
  {
    id: 'sdkAgentToolName',
    original: 'The subagent tool is named `Task` (the original loop; the transcripts of 2.1.38 and 2.1.39 call it so).',
    turnloop: 'In an SDK session it is offered as `Agent` and named so in hook inputs, permission questions and denials, and listed as `Task` in `init`, as claude 2.1.334 does; a call, an option or a rule naming `Task` still reaches it, and a hook matcher naming either matches it. The CLI\'s and the library\'s Task tool keep the original\'s name.',
    why: 'SDK programs are written against the real executable: a PostToolUse hook that looks for `Agent` must see it.',
    configSwitch: null,
    test: { file: 'test/unit/agent-sdk/agent-tool-name.test.ts', name: 'is offered as Agent, runs a call named Task or Agent, names itself Agent in hook inputs and Task in init' },
  },
  {
    id: 'sdkStringToolInputs',
    original: 'A tool_use input is checked against the tool\'s schema as the model sent it: a number or boolean field given as a string ("2", "true") fails it and the call gets an error result.',
    turnloop: 'In an SDK session, as claude 2.1.334: a top-level field whose schema type is number or integer given a decimal number as a string, or one of type boolean given "true" or "false", is rewritten before the loop sees the reply, so the call, the assistant message and the next request carry the number or boolean; "abc", "yes", nested fields, array items and union-typed fields stay as sent. The loop and its other callers keep the original\'s check.',
    why: 'Programs written against claude (StructuredOutput, SDK MCP tools, Read\'s offset) get the same call and the same result on turnloop.',
    configSwitch: null,
    test: { file: 'test/unit/agent-sdk/string-inputs.test.ts', name: 'a Read with a string offset and a StructuredOutput with a string number run, and the assistant message shows the numbers' },
  },
];
