/**
 * The Task tool of `turnloop run`: the subagent's call is not asked about (what it does is asked about inside),
 * its Edit is, through the same permission prompt; a declined Edit leaves the file as it was.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createPermissionPrompt } from '../../../src/cli/run/permission-prompt.ts';
import { createTaskTool, TASK_TOOL_NAME } from '../../../src/cli/run/task-agent.ts';
import { createAnthropicModelCaller } from '../../../src/model/index.ts';
import { runLoop } from '../../../src/drivers/run-loop.ts';
import { startFakeAnthropicApi } from '../../../src/fake-api/index.ts';
import type { Terminal } from '../../../src/data/outcomes.ts';
import { createFileTools } from '../../../src/tools/builtin/index.ts';

describe('turnloop run: the Task tool and the permission prompt', () => {
  let root = '';
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('asks once, about the subagent\'s Edit, not about Task; "no" keeps the file and the child reports it', async () => {
    root = mkdtempSync(join(tmpdir(), 'turnloop-task-'));
    writeFileSync(join(root, 'a.txt'), 'old\n');
    const fileTools = createFileTools({ root });
    const api = await startFakeAnthropicApi({
      model: [
        { content: [{ type: 'tool_use', id: 'toolu_task', name: TASK_TOOL_NAME, input: { prompt: 'Change a.txt to say new.' } }] },
        { content: [{ type: 'tool_use', id: 'toolu_edit', name: 'Edit', input: { file_path: 'a.txt', old_string: 'old', new_string: 'new' } }] },
        { content: [{ type: 'text', text: 'The edit was declined; a.txt is unchanged.' }] },
        { content: [{ type: 'text', text: 'Nothing changed.' }] },
      ],
    });
    const asked: string[] = [];
    const output = new Writable({ write: (chunk, _enc, done) => (asked.push(String(chunk)), done()) });
    try {
      const run = runLoop({
        prompt: 'change a.txt',
        tools: [...fileTools, createTaskTool(root, fileTools)],
        canUseTool: createPermissionPrompt({ yes: false, askedInside: [TASK_TOOL_NAME], streams: { input: Readable.from(['n\n']), output } }),
        deps: { callModel: createAnthropicModelCaller({ apiKey: 'test', baseURL: api.baseURL }) },
      });
      let next = await run.next();
      while (!next.done) next = await run.next();
      const terminal: Terminal = next.value;
      expect(terminal.reason).toBe('completed');
      expect(asked.join('').match(/Allow /g)).toHaveLength(1);
      expect(asked.join('')).toContain('Allow Edit');
      expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('old\n');
      const childTools = (api.requests[1] as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
      expect(childTools.sort()).toEqual(['Edit', 'Glob', 'Grep', 'Read']);
      const last = JSON.stringify(api.requests[3]);
      expect(last).toContain('The edit was declined; a.txt is unchanged.');
    } finally {
      await api.close();
    }
  });
});
