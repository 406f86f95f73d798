import { describe, expect, it } from 'vitest';
import { createAnthropicModelCaller } from '../../../src/model/anthropic-model-caller.ts';
import type { ModelStreamItem } from '../../../src/data/deps.ts';
import { callOptions, fakeApi, fakeClock, modelRequest } from './helpers.ts';

describe('an aborted call', () => {
  it('stops mid-stream promptly and yields nothing after the abort', async () => {
    const api = await fakeApi({ model: [{ content: [{ type: 'text', text: 'a'.repeat(200) }], eventDelayMs: 50 }] });
    const controller = new AbortController();
    const callModel = createAnthropicModelCaller({ apiKey: 'k', baseURL: api.baseURL });
    const items: ModelStreamItem[] = [];
    let started = 0; // from the first event: the first call also loads the SDK (lazily), which is not the stream
    for await (const item of callModel(modelRequest(), callOptions({ signal: controller.signal }))) {
      items.push(item);
      if (items.length === 1) started = Date.now();
      if (items.length === 3) controller.abort();
    }
    expect(items).toHaveLength(3);
    expect(items.every((item) => item.kind === 'stream_event')).toBe(true);
    expect(Date.now() - started).toBeLessThan(1_000); // the whole reply would take ~0.8 s
  });

  it('stops while waiting for the first byte', async () => {
    const api = await fakeApi({ model: [{ content: [{ type: 'text', text: 'late' }], delayMs: 5_000 }] });
    const controller = new AbortController();
    const callModel = createAnthropicModelCaller({ apiKey: 'k', baseURL: api.baseURL });
    setTimeout(() => controller.abort(), 30);
    const items: ModelStreamItem[] = [];
    for await (const item of callModel(modelRequest(), callOptions({ signal: controller.signal }))) items.push(item);
    expect(items).toEqual([]);
  });

  it('stops during a backoff sleep without retrying', async () => {
    const api = await fakeApi({ model: [{ status: 500, error: { type: 'api_error', message: 'x' } }, { content: [{ type: 'text', text: 'no' }] }] });
    const controller = new AbortController();
    const clock = fakeClock();
    const sleep = clock.sleep;
    clock.sleep = async (ms, signal) => {
      controller.abort();
      return sleep(ms, signal);
    };
    const callModel = createAnthropicModelCaller({ apiKey: 'k', baseURL: api.baseURL });
    const items: ModelStreamItem[] = [];
    for await (const item of callModel(modelRequest(), callOptions({ signal: controller.signal, clock }))) items.push(item);
    expect(items).toEqual([]);
    expect(api.requests).toHaveLength(1);
  });

  it('yields nothing when the signal is already aborted', async () => {
    const api = await fakeApi({ model: [{ content: [{ type: 'text', text: 'never' }] }] });
    const callModel = createAnthropicModelCaller({ apiKey: 'k', baseURL: api.baseURL });
    const items: ModelStreamItem[] = [];
    for await (const item of callModel(modelRequest(), callOptions({ signal: AbortSignal.abort() }))) items.push(item);
    expect(items).toEqual([]);
    expect(api.requests).toHaveLength(0);
  });
});
