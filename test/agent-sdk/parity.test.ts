/**
 * What claude 2.1.334 prints that turnloop did not (issue #38, round 11), side by side: the subagent tool's name,
 * the SubagentStart/SubagentStop inputs, the denial texts, and number and boolean tool inputs sent as strings
 * (programs/parity-*.ts). Each fact is checked on both engines; what still differs is named in each test (and in
 * docs/agent-sdk-conformance.md).
 */
import { describe, expect, it } from 'vitest';
import { bothRuns } from './harness/both-runs.ts';
import { ENGINES, type EngineName } from './harness/engines.ts';
import { parityAgentTool } from './programs/parity-agent-tool.ts';
import { parityDenials } from './programs/parity-denials.ts';
import { parityStringInputs } from './programs/parity-string-inputs.ts';

type Json = Record<string, any>;
const START_KEYS = 'agent_id,agent_type,cwd,hook_event_name,prompt_id,session_id,transcript_path';
const STOP_KEYS = 'agent_id,agent_transcript_path,agent_type,background_tasks,cwd,effort,hook_event_name,last_assistant_message,permission_mode,prompt_id,session_crons,session_id,stop_hook_active,transcript_path';

describe(parityAgentTool.name, () => {
  const run = bothRuns(parityAgentTool);
  const hooks = (engine: EngineName) => run(engine).observed.hookInputs as Json[];

  it('both offer the tool as Agent, show the same messages, and name it Agent in every tool hook input for a call named Task or Agent', () => {
    for (const engine of ENGINES) {
      expect(run(engine).error).toBeUndefined();
      // The main thread's requests (the 1st, 3rd and 5th); claude offers Agent to its subagents too, turnloop does not.
      const requestTools = run(engine).observed.requestTools as string[];
      for (const i of [0, 2, 4]) expect(requestTools[i].split(','), engine).toContain('Agent');
      expect((run(engine).observed.requestTools as string[]).some((tools) => tools.split(',').includes('Task')), engine).toBe(false);
      const toolHooks = hooks(engine).filter((i) => i.hook_event_name === 'PreToolUse' || i.hook_event_name === 'PostToolUse');
      // PreToolUse runs twice per call: the matchers `Task` and `Agent` both match it.
      expect(toolHooks.map((i) => `${i.hook_event_name} ${i.tool_name} ${i.tool_use_id}`), engine).toEqual([
        'PreToolUse Agent toolu_task_1', 'PreToolUse Agent toolu_task_1', 'PostToolUse Agent toolu_task_1',
        'PreToolUse Agent toolu_agent_1', 'PreToolUse Agent toolu_agent_1', 'PostToolUse Agent toolu_agent_1',
      ]);
    }
    expect(run('turnloop').shapes).toEqual(run('claude').shapes);
  });

  it("both send SubagentStart without permission_mode, and SubagentStop with permission_mode and session_crons", () => {
    // The ids' values are each engine's own (agent-ids.test.ts compares where they appear); their fields are compared here.
    const shape = (i: Json) => ({ event: i.hook_event_name, agent_type: i.agent_type, has_mode: 'permission_mode' in i, session_crons: i.session_crons, last: i.last_assistant_message, keys: Object.keys(i).sort().join(',') });
    const subagentHooks = (engine: EngineName) => hooks(engine).filter((i) => i.hook_event_name.startsWith('Subagent')).map(shape);
    expect(subagentHooks('claude')).toEqual([
      { event: 'SubagentStart', agent_type: 'general-purpose', has_mode: false, session_crons: undefined, last: undefined, keys: START_KEYS },
      { event: 'SubagentStop', agent_type: 'general-purpose', has_mode: true, session_crons: [], last: 'There are no files.', keys: STOP_KEYS },
      { event: 'SubagentStart', agent_type: 'general-purpose', has_mode: false, session_crons: undefined, last: undefined, keys: START_KEYS },
      { event: 'SubagentStop', agent_type: 'general-purpose', has_mode: true, session_crons: [], last: 'There are no folders.', keys: STOP_KEYS },
    ]);
    expect(subagentHooks('turnloop')).toEqual(subagentHooks('claude'));
  });
});

describe(parityDenials.name, () => {
  const run = bothRuns(parityDenials);
  const texts = (engine: EngineName) => run(engine).observed.texts as Record<string, Json>;
  const denial = (t: Json) => ({ result: t.result, is_error: t.is_error, reason: t.denied?.decision_reason_type, same: t.denied ? t.denied.message === t.result : null });

  it('a Bash deny rule and dontAsk mode: the same text, the same permission_denied reason', () => {
    for (const id of ['toolu_bashrule', 'toolu_dontask']) expect(denial(texts('turnloop')[id]), id).toEqual(denial(texts('claude')[id]));
    expect(texts('claude').toolu_bashrule.denied.decision_reason_type).toBe('subcommandResults');
    expect(texts('claude').toolu_dontask.denied.decision_reason_type).toBe('mode');
  });

  it("a call nobody can be asked about is denied and announced on both, in each engine's words (Extension sdkPermissionDenialText)", () => {
    for (const engine of ENGINES) expect(denial(texts(engine).toolu_nobody), engine).toMatchObject({ is_error: true, reason: undefined, same: true });
    expect(texts('claude').toolu_nobody.result).not.toBe(texts('turnloop').toolu_nobody.result);
  });
});

describe(parityStringInputs.name, () => {
  const run = bothRuns(parityStringInputs);

  it('both rewrite top-level number and boolean fields sent as strings, and only those, in the message and the call', () => {
    const shown = (engine: EngineName) => (run(engine).observed.shownInputs as Json[]).map(({ id, input }) => {
      const { file_path: _path, limit: _limit, ...rest } = input;
      return { id, ...rest };
    });
    // Read's limit is left out: claude kept "1" as sent (its Read takes it as it is), turnloop shows 1.
    expect(shown('turnloop')).toEqual(shown('claude'));
    expect(shown('claude')[0]).toMatchObject({ count: 2, flag: true, neg: -1.5, nested: { n: '3', b: 'false' }, list: ['4', '5'], text: '7', maybe: '8' });
    for (const engine of ENGINES) {
      expect(run(engine).observed.structured, engine).toEqual({ city: 'Paris', population: 2102650, capital: true });
      // The MCP calls still fail their schema (a nested field, then "abc"), each in its engine's words.
      expect((run(engine).observed.results as Json[]).map((r) => [r.id, r.is_error === true]), engine).toEqual([['toolu_mcp', true], ['toolu_read', false], ['toolu_bad', true], ['toolu_so', false]]);
    }
    expect(run('turnloop').shapes).toEqual(run('claude').shapes);
  });
});
