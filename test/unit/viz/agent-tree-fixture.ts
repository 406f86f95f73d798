/**
 * A recorded tree of runs for the viewer tests: the root asks two subagents at once (Explore, Review); Explore
 * asks a subagent of its own (Lookup) before it answers. Recorded by the real `query()` with `record`, so the
 * children are the files `run.agents/<toolUseId>.jsonl` (and `run.agents/toolu_a.agents/toolu_c.jsonl`).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineAgentTool } from '../../../src/agents/define-agent-tool.ts';
import { runQuery } from '../../../src/api/query.ts';
import { counterIds, virtualClock } from '../../../src/runtime/system-clock.ts';
import { routedModelCaller, text, toolUses } from '../agents/agent-tree.ts';

export async function recordAgentTree(): Promise<{ dir: string; log: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'turnloop-viz-tree-'));
  const log = join(dir, 'run.jsonl');
  const lookup = defineAgentTool({ name: 'Lookup', description: 'Finds one symbol' });
  const explore = defineAgentTool({ name: 'Explore', description: 'Finds things in the code', tools: [lookup] });
  const review = defineAgentTool({ name: 'Review', description: 'Reviews a change' });
  const callModel = routedModelCaller({
    sdk: [toolUses({ id: 'toolu_a', name: 'Explore', prompt: 'find auth' }, { id: 'toolu_b', name: 'Review', prompt: 'review it' }), text('Auth is in src/auth.ts and the change looks fine.')],
    'agent:Explore': [toolUses({ id: 'toolu_c', name: 'Lookup', prompt: 'where is validate()' }), text('auth is in src/auth.ts')],
    'agent:Lookup': [text('src/auth.ts:12')],
    'agent:Review': [text('looks fine')],
  });
  const { terminal } = await runQuery({ prompt: 'Where is auth, and is the change fine?', tools: [explore, review], deps: { callModel, clock: virtualClock(0), newId: counterIds('t') }, record: log });
  if (terminal.reason !== 'completed') throw new Error(`fixture tree ended ${JSON.stringify(terminal)}`);
  return { dir, log };
}
