/**
 * Pieces of the fake API scripts. A reply that calls a tool opens with a thinking block: the real executable asks
 * for thinking, and with thinking on the real API refuses a tool-result turn whose assistant turn does not start
 * with one (the fake API's `final_assistant_starts_with_thinking` rule, docs/fake-api.md).
 */
import type { FakeAnswerInput } from '../harness/fake-api.ts';

export function toolCall(id: string, name: string, input: Record<string, unknown>): FakeAnswerInput {
  return {
    content: [
      { type: 'thinking', thinking: `Calling ${name}.`, signature: 'sig-offline' },
      { type: 'tool_use', id, name, input },
    ],
    stop_reason: 'tool_use',
  };
}

export function text(answer: string): FakeAnswerInput {
  return { content: [{ type: 'text', text: answer }] };
}
