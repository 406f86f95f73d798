/**
 * Shared fixtures of the model adapter tests: a fake clock that records its sleeps and returns at once, a
 * deterministic id generator, default call options, and a runner that points the real SDK at the fake API.
 */
import { afterEach } from 'vitest';
import { DEFAULT_CONFIG, type RetryPolicy } from '../../../src/config/config.ts';
import type { Clock, ModelCallOptions, ModelStreamItem } from '../../../src/data/deps.ts';
import { createAnthropicModelCaller } from '../../../src/model/anthropic-model-caller.ts';
import { startFakeAnthropicApi, type FakeApi, type FakeScriptInput } from '../../../src/fake-api/index.ts';
import type { Message } from '../../../src/messages/types.ts';
import type { ModelRequest } from '../../../src/data/effects.ts';
import type { LoopEvent } from '../../../src/data/events.ts';

export interface FakeClock extends Clock {
  sleeps: number[];
}

export function fakeClock(): FakeClock {
  let now = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms, signal) => {
      sleeps.push(ms);
      now += ms;
      if (signal?.aborted) throw new Error('aborted');
    },
  };
}

export function idGenerator(prefix = 'id'): () => string {
  let n = 0;
  return () => `${prefix}-${++n}`;
}

export const TEST_RETRY: RetryPolicy = { ...DEFAULT_CONFIG.retry, maxRetries: 4, maxOverloadedRetries: 3, baseDelayMs: 100, maxDelayMs: 1_000 };

export function userText(uuid: string, text: string): Message {
  return { type: 'user', uuid, message: { role: 'user', content: text } };
}

export function modelRequest(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'claude-test',
    max_tokens: 1_000,
    messages: [userText('u1', 'Hello there')],
    system: ['You are a test.'],
    tools: [],
    ...overrides,
  };
}

export function callOptions(overrides: Partial<ModelCallOptions> = {}): ModelCallOptions {
  return {
    signal: new AbortController().signal,
    querySource: 'repl_main_thread',
    tools: [],
    retry: TEST_RETRY,
    clock: fakeClock(),
    newId: idGenerator(),
    ...overrides,
  };
}

const openApis: Array<{ api: FakeApi; allowRejections: boolean }> = [];
afterEach(async () => {
  const opened = openApis.splice(0);
  await Promise.all(opened.map(({ api }) => api.close()));
  // The strict fake refuses what the real API refuses: a test whose requests were refused, without saying it
  // expects that, sent something the real API would reject.
  const refused = opened.filter(({ allowRejections }) => !allowRejections).flatMap(({ api }) => api.rejections());
  if (refused.length > 0) throw new Error(`the fake API refused ${refused.length} request(s): ${refused.map((r) => r.rejected?.message).join(' | ')}`);
});

/** Starts a fake API that is closed after the test (which fails if a request was refused, unless allowed). */
export async function fakeApi(script: FakeScriptInput, options: { allowRejections?: boolean } = {}): Promise<FakeApi> {
  const api = await startFakeAnthropicApi(script);
  openApis.push({ api, allowRejections: options.allowRejections === true });
  return api;
}

/** Runs one model call against a fake API with the real SDK and collects everything it yielded. */
export async function runCall(
  script: FakeScriptInput,
  request: ModelRequest = modelRequest(),
  overrides: Partial<ModelCallOptions> = {},
  fake: { allowRejections?: boolean } = {},
): Promise<{ api: FakeApi; items: ModelStreamItem[]; events: LoopEvent[]; options: ModelCallOptions }> {
  const api = await fakeApi(script, fake);
  const options = callOptions(overrides);
  const callModel = createAnthropicModelCaller({ apiKey: 'test-key', baseURL: api.baseURL });
  const items = await collect(callModel(request, options));
  return { api, items, events: loopEvents(items), options };
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

export function loopEvents(items: readonly ModelStreamItem[]): LoopEvent[] {
  return items.flatMap((item) => (item.kind === 'event' ? [item.event as LoopEvent] : []));
}

/** The event types in order, e.g. `['model_message', 'model_done']`. */
export function eventTypes(events: readonly LoopEvent[]): string[] {
  return events.map((event) => event.type);
}

export function modelMessages(events: readonly LoopEvent[]) {
  return events.flatMap((event) => (event.type === 'model_message' ? [event.message] : []));
}
