/**
 * The durable driver and `query()` give the same run for every example scenario: same transcript, same terminal,
 * same requests to the (fake) model API, same tool calls. And a recovery from the whole journal executes nothing.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { durableQuery, MemoryJournal } from '../../../src/durable/index.ts';
import { loadScenario } from '../../../src/scenario/load-scenario.ts';
import { simulateScenario } from '../../../src/scenario/simulate.ts';
import type { Message } from '../../../src/messages/types.ts';

/** A message with the not-started wording of a cancelled tool result replaced by the interrupted one. */
function notStartedAsInterrupted(message: Message): Message {
  const text = JSON.stringify(message);
  const rewritten = text.replace(/Not run: this tool call was cancelled before it started\. \((.*?)\)"/g, '$1"');
  return JSON.parse(rewritten) as Message;
}

const DIR = resolve(import.meta.dirname, '../../../examples/scenarios');
const files = readdirSync(DIR).filter((name) => name.endsWith('.json')).sort();

describe('durable driver on every example scenario', () => {
  it('finds the scenarios', () => expect(files.length).toBeGreaterThan(10));

  for (const file of files) {
    it(`${file}: same run as query()`, async () => {
      const scenario = loadScenario(join(DIR, file), DIR);
      const live = await simulateScenario(scenario);
      const journal = new MemoryJournal();
      const durable = await simulateScenario(scenario, { driver: (options) => durableQuery({ ...options, journal }) });
      // An abort during tools: query() had started the streamed tool, which was interrupted; the durable driver
      // starts tools only after the reply is journaled, so there the call never started, and its cancellation
      // result says so (Extension durableToolsInCallOrder). Everything else is the same.
      const abortedTools = scenario.abort?.during === 'tools';
      expect(abortedTools ? durable.emitted.map(notStartedAsInterrupted) : durable.emitted).toEqual(live.emitted);
      expect(durable.terminal).toEqual(live.terminal);
      expect(durable.transitions).toEqual(live.transitions);
      expect(durable.requests).toEqual(live.requests);
      // The durable driver starts tools once the model call is journaled, not while it streams: a tool that
      // query() started before an abort may not start at all (its result is the same cancellation either way).
      if (!scenario.abort) expect(durable.toolCalls.map((c) => c.id)).toEqual(live.toolCalls.map((c) => c.id));

      // Recovering from the complete journal answers everything from it: no model request, no tool call.
      const recovered = await simulateScenario(scenario, { driver: (options) => durableQuery({ ...options, journal: new MemoryJournal(journal.entries) }) });
      expect(recovered.emitted).toEqual(durable.emitted);
      expect(recovered.terminal).toEqual(live.terminal);
      expect(recovered.requests).toEqual([]);
      expect(recovered.toolCalls).toEqual([]);
    });
  }
});
