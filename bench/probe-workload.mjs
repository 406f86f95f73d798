/**
 * The bench's workload for the plain-JavaScript instruction probes (`query-instr-probe.mjs`,
 * `recorder-instr-probe.mjs`), loaded from a built tree's `dist/` (no tsx: its start-up would hide small
 * differences). One copy of `systems/turnloop.ts`'s config, echo tool, scripted model and history; keep it in step
 * with that file and `core-ab-sides.ts`.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

/** `load(path)` imports `<root>/dist/<path>`; the rest is the workload, made with that build's modules. */
export async function loadProbeWorkload(root) {
  const load = (path) => import(pathToFileURL(join(root, 'dist', path)).href);
  const { resolveConfig } = await load('config/config.js');
  const { defineTool } = await load('tools/index.js');
  const { runLoopToEnd } = await load('drivers/run-loop.js');
  const { z } = createRequire(join(root, 'package.json'))('zod');

  const config = resolveConfig({ sessionId: 'bench', limits: { maxModelCalls: 1_000_000 } });
  const echo = defineTool({
    name: 'echo',
    description: 'Answers its text unchanged.',
    inputSchema: z.object({ text: z.string() }),
    isConcurrencySafe: () => true,
    call: (input) => ({ content: input.text }),
  });
  const USAGE = { input_tokens: 1_000, output_tokens: 20 };

  /** Call k asks for echo while k <= turns, then answers with text. */
  function scriptedCaller(turns) {
    let call = 0;
    return async function* (request) {
      call += 1;
      const id = `msg_${call}`;
      const block = call <= turns ? { type: 'tool_use', id: `call_${call}`, name: 'echo', input: { text: `ping ${call}` } } : { type: 'text', text: 'All done.' };
      const stopReason = call <= turns ? 'tool_use' : 'end_turn';
      const message = { type: 'assistant', uuid: `${id}:0`, message: { id, role: 'assistant', model: request.model, content: [block], stop_reason: stopReason, usage: USAGE } };
      yield { kind: 'event', event: { type: 'model_message', message } };
      yield { kind: 'event', event: { type: 'model_done', usage: USAGE, stopReason } };
    };
  }

  function history(size) {
    const messages = [];
    for (let i = 0; i < size; i++) {
      const text = `earlier message ${i}`;
      messages.push(i % 2 === 0
        ? { type: 'user', uuid: `h${i}`, message: { role: 'user', content: text } }
        : { type: 'assistant', uuid: `h${i}`, message: { id: `hmsg_${i}`, role: 'assistant', model: config.model, content: [{ type: 'text', text }], stop_reason: 'end_turn' } });
    }
    return messages;
  }

  return { load, config, echo, scriptedCaller, history, runLoopToEnd };
}
