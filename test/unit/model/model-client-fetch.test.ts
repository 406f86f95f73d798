/**
 * Which `fetch` the model client sends with: Node's global one unless `fetch` is given (so a process's undici global
 * dispatcher, a proxy agent, still applies to a library's requests); the headless mode gives its own over node:http.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAnthropicModelCaller } from '../../../src/model/anthropic-model-caller.ts';
import { nodeHttpFetch } from '../../../src/model/node-http-fetch.ts';
import { callOptions, collect, eventTypes, fakeApi, loopEvents, modelRequest } from './helpers.ts';

const SCRIPT = { model: [{ id: 'msg_1', content: [{ type: 'text' as const, text: 'hi' }] }] };

afterEach(() => vi.restoreAllMocks());

describe("the model client's fetch", () => {
  it("is Node's global fetch by default", async () => {
    const api = await fakeApi(SCRIPT);
    try {
      const global = vi.spyOn(globalThis, 'fetch');
      const callModel = createAnthropicModelCaller({ apiKey: 'k', baseURL: api.baseURL });
      const events = loopEvents(await collect(callModel(modelRequest(), callOptions())));
      expect(eventTypes(events)).toEqual(['model_message', 'model_done']);
      expect(global).toHaveBeenCalledTimes(1);
      expect(String(global.mock.calls[0]?.[0])).toBe(`${api.baseURL}/v1/messages`);
    } finally {
      await api.close();
    }
  });

  it('is the one given (the headless mode gives nodeHttpFetch), and the global one is not called', async () => {
    const api = await fakeApi(SCRIPT);
    try {
      const global = vi.spyOn(globalThis, 'fetch');
      const given = vi.fn(nodeHttpFetch);
      const callModel = createAnthropicModelCaller({ apiKey: 'k', baseURL: api.baseURL, fetch: given });
      const events = loopEvents(await collect(callModel(modelRequest(), callOptions())));
      expect(eventTypes(events)).toEqual(['model_message', 'model_done']);
      expect(given).toHaveBeenCalledTimes(1);
      expect(global).not.toHaveBeenCalled();
    } finally {
      await api.close();
    }
  });
});
