/**
 * A model call aimed at nothing fails in seconds and says where and why: a malformed base URL is refused before any
 * request, a refused connection names the URL and the network's cause on every retry notice and in the final
 * API-error message, and `maxUnreachableRetries` shortens only that case (no network: 127.0.0.1 ports that refuse).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicModelCaller, type ModelRetryNotice } from '../../../src/model/anthropic-model-caller.ts';
import { checkBaseUrl, endpointOf, InvalidBaseUrlError } from '../../../src/model/base-url.ts';
import { classifyModelError, isUnreachable } from '../../../src/model/classify-error.ts';
import { isTurnloopError } from '../../../src/errors/turnloop-error.ts';
import { refusingPort } from '../../helpers/refusing-port.ts';
import { callOptions, collect, fakeApi, fakeClock, loopEvents, modelRequest, TEST_RETRY } from './helpers.ts';

function finalApiError(events: ReturnType<typeof loopEvents>) {
  const message = events.find((e) => e.type === 'model_message');
  return message?.type === 'model_message' ? message.message.apiError : undefined;
}

describe('base URL check', () => {
  it.each([
    ['localhost:9', 'no scheme'],
    ['api.example.com', 'no scheme'],
    ['ftp://example.com', 'scheme ftp is not http or https'],
    ['http://', 'not a URL'],
    ['', 'empty'],
    ['https://example.com/?x=1', 'query or fragment'],
  ])('refuses %j (%s), naming the value and what was expected', (value, problem) => {
    let caught: unknown;
    try {
      checkBaseUrl(value, '--base-url');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidBaseUrlError);
    expect(isTurnloopError(caught)).toBe(true);
    expect((caught as InvalidBaseUrlError).code).toBe('INVALID_BASE_URL');
    const message = (caught as Error).message;
    expect(message).toContain(`--base-url is ${JSON.stringify(value)}`);
    expect(message).toContain(problem);
    expect(message).toContain('expected an absolute http:// or https:// URL with a host');
  });

  it.each(['http://127.0.0.1:9', 'https://api.anthropic.com', 'https://gateway.example.com/anthropic/'])('accepts %s', (value) => {
    expect(checkBaseUrl(value, 'baseURL')).toBe(value);
  });

  it('names the Messages endpoint under a base URL, and the default one without', () => {
    expect(endpointOf('http://127.0.0.1:9/')).toBe('http://127.0.0.1:9/v1/messages');
    expect(endpointOf(undefined)).toBe('https://api.anthropic.com/v1/messages');
  });

  it('createAnthropicModelCaller refuses a malformed baseURL when it is created, before any request', () => {
    expect(() => createAnthropicModelCaller({ apiKey: 'k', baseURL: 'localhost:9' })).toThrow(InvalidBaseUrlError);
  });

  describe('from ANTHROPIC_BASE_URL', () => {
    const saved = process.env.ANTHROPIC_BASE_URL;
    beforeEach(() => {
      process.env.ANTHROPIC_BASE_URL = 'localhost:9';
    });
    afterEach(() => {
      if (saved === undefined) delete process.env.ANTHROPIC_BASE_URL;
      else process.env.ANTHROPIC_BASE_URL = saved;
    });

    it('ends the call at once on an API-error message naming the variable and its value, with no retry', async () => {
      const clock = fakeClock();
      const notices: ModelRetryNotice[] = [];
      const events = loopEvents(await collect(createAnthropicModelCaller({ apiKey: 'k', onRetry: (n) => notices.push(n) })(modelRequest(), callOptions({ clock }))));
      expect(events.map((e) => e.type)).toEqual(['model_message', 'model_done']);
      expect(finalApiError(events)?.text).toContain('ANTHROPIC_BASE_URL is "localhost:9": it has no scheme');
      expect(clock.sleeps).toEqual([]);
      expect(notices).toEqual([]);
    });
  });
});

describe('a refused connection', () => {
  it('is classified as unreachable, with the socket error as its cause', async () => {
    const port = await refusingPort();
    const error = await fetch(`http://127.0.0.1:${port}/`).then(
      () => undefined,
      (e: unknown) => e,
    );
    const failure = classifyModelError(error);
    expect(failure.kind).toBe('retryable');
    expect(failure.connection?.code).toBe('ECONNREFUSED');
    expect(failure.connection?.cause).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
    expect(isUnreachable(failure)).toBe(true);
    expect(isUnreachable(classifyModelError({ status: 500, message: 'boom' }))).toBe(false);
  });

  it('reads an unresolvable host and a dual-stack refusal (AggregateError) from the error chain the SDK wraps', () => {
    const wrapped = (cause: unknown) => Object.assign(new Error('Connection error.'), { cause: Object.assign(new TypeError('fetch failed'), { cause }) });
    const notFound = classifyModelError(wrapped(Object.assign(new Error('getaddrinfo ENOTFOUND api.example.invalid'), { code: 'ENOTFOUND' })));
    expect(notFound.connection).toEqual({ cause: 'getaddrinfo ENOTFOUND api.example.invalid', code: 'ENOTFOUND' });
    expect(isUnreachable(notFound)).toBe(true);
    const dual = Object.assign(new AggregateError([new Error('connect ECONNREFUSED ::1:9'), new Error('connect ECONNREFUSED 127.0.0.1:9')], ''), { code: 'ECONNREFUSED' });
    expect(classifyModelError(wrapped(dual)).connection).toEqual({ cause: 'connect ECONNREFUSED ::1:9', code: 'ECONNREFUSED' });
    // A reset mid-way is worth the full backoff: not unreachable.
    const reset = classifyModelError(wrapped(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })));
    expect(reset.connection?.code).toBe('ECONNRESET');
    expect(isUnreachable(reset)).toBe(false);
  });

  it("explains fetch's blocked ports (the issue's http://127.0.0.1:9) and treats them as unreachable", async () => {
    const error = await fetch('http://127.0.0.1:9/').then(
      () => undefined,
      (e: unknown) => e,
    );
    const failure = classifyModelError(error);
    expect(failure.connection?.cause).toContain("bad port: fetch refuses to connect to this port");
    expect(isUnreachable(failure)).toBe(true);
  });

  it('names the URL and the cause on every retry notice and in the final message (the original schedule by default)', async () => {
    const port = await refusingPort();
    const clock = fakeClock();
    const notices: ModelRetryNotice[] = [];
    const callModel = createAnthropicModelCaller({ apiKey: 'k', baseURL: `http://127.0.0.1:${port}`, onRetry: (n) => notices.push(n) });
    const events = loopEvents(await collect(callModel(modelRequest(), callOptions({ clock }))));
    const url = `http://127.0.0.1:${port}/v1/messages`;
    expect(notices).toHaveLength(TEST_RETRY.maxRetries);
    for (const notice of notices) {
      expect(notice.maxRetries).toBe(TEST_RETRY.maxRetries);
      expect(notice.error.url).toBe(url);
      expect(notice.error.cause).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
    }
    expect(events.map((e) => e.type)).toEqual(['model_message', 'model_done']);
    const text = finalApiError(events)?.text ?? '';
    expect(text).toContain(`${url}: connect ECONNREFUSED 127.0.0.1:${port}`);
    expect(text).toContain(`gave up after ${TEST_RETRY.maxRetries} retries`);
  });

  it('maxUnreachableRetries gives up sooner on it, and only on it', async () => {
    const port = await refusingPort();
    const clock = fakeClock();
    const notices: ModelRetryNotice[] = [];
    const callModel = createAnthropicModelCaller({ apiKey: 'k', baseURL: `http://127.0.0.1:${port}`, maxUnreachableRetries: 1, onRetry: (n) => notices.push(n) });
    const events = loopEvents(await collect(callModel(modelRequest(), callOptions({ clock }))));
    expect(notices.map((n) => [n.attempt, n.maxRetries])).toEqual([[1, 1]]);
    expect(clock.sleeps).toHaveLength(1);
    expect(finalApiError(events)?.text).toContain('gave up after 1 retry');

    // A 500 is an answer: the full policy applies to it.
    const serverError = { status: 500, error: { type: 'api_error', message: 'Internal server error' } } as const;
    const api = await fakeApi({ model: [serverError, serverError, { content: [{ type: 'text', text: 'ok' }] }] });
    const answered: ModelRetryNotice[] = [];
    const viaApi = createAnthropicModelCaller({ apiKey: 'k', baseURL: api.baseURL, maxUnreachableRetries: 1, onRetry: (n) => answered.push(n) });
    const ok = loopEvents(await collect(viaApi(modelRequest(), callOptions({ clock: fakeClock() }))));
    expect(answered.map((n) => n.attempt)).toEqual([1, 2]);
    expect(answered[0]?.error).toEqual({ message: 'Internal server error', status: 500, url: `${api.baseURL.replace(/\/$/, '')}/v1/messages` });
    expect(finalApiError(ok)).toBeUndefined();
  });
});
