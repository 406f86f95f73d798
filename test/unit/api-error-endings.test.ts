/**
 * How the original loop ends on an API error (docs/loop.md §4.5, §4.9): the model caller turns a failure it gives up on
 * into an API-error message, and the exit ladder ends the run `completed` after the stop-failure hooks, never
 * running stop hooks (docs/loop.md §9.4). `model_error` is left for errors thrown by a bug. The Terminal's `apiError`
 * field (Extension `terminalApiError`) tells the embedder which error it was.
 */
import { describe, expect, it } from 'vitest';
import { apiError, assistantText, compactFailed, drive, effectsOf, emittedOf, params, reply, testConfig } from '../helpers/index.ts';

const refusal = () => {
  const message = apiError('other', 'The model declined to answer this request (stop reason: refusal).');
  return { ...message, apiError: { ...message.apiError!, errorType: 'refusal' } };
};

describe('API errors end the run completed (docs/loop.md §4.9.3)', () => {
  it('a 401 answer (an API-error message) ends completed with the error on the Terminal, after stop-failure hooks', () => {
    const auth = { ...apiError('other', 'API error 401 authentication_error: invalid x-api-key') };
    auth.apiError = { ...auth.apiError!, status: 401, errorType: 'authentication_error' };
    const run = drive(params(), testConfig(), { model: [reply(auth)], stopHooks: [{ blockingErrors: ['would loop'], preventContinuation: false }] });
    expect(run.terminal).toEqual({ reason: 'completed', apiError: auth.apiError });
    expect(emittedOf(run, 'assistant')).toEqual([auth]);
    expect(effectsOf(run, 'run_stop_failure_hooks')).toMatchObject([{ error: auth }]);
    expect(effectsOf(run, 'run_stop_hooks')).toEqual([]);
    expect(run.requests).toHaveLength(1);
  });

  it('a clean reply carries no apiError on its Terminal', () => {
    const run = drive(params(), testConfig(), { model: [reply(assistantText('Fine.'))] });
    expect(run.terminal).toEqual({ reason: 'completed' });
  });

  it('a refusal is an API error: no stop hooks run on it, the turn ends completed (docs/loop.md §9.4)', () => {
    const said = assistantText('I can help with part of');
    const declined = refusal();
    const run = drive(params(), testConfig(), { model: [reply([said, declined])], stopHooks: [{ blockingErrors: ['keep going'], preventContinuation: false }] });
    expect(run.terminal).toMatchObject({ reason: 'completed', apiError: { errorType: 'refusal' } });
    expect(emittedOf(run, 'assistant')).toEqual([said, declined]);
    expect(effectsOf(run, 'run_stop_hooks')).toEqual([]);
    expect(effectsOf(run, 'run_stop_failure_hooks')).toHaveLength(1);
  });
});

describe('stop-failure hooks on the unrecovered prompt errors (docs/loop.md §4.9.1)', () => {
  it('image_error: a withheld media error that reactive compact cannot fix fires the stop-failure hooks', () => {
    const media = apiError('media_size', 'image exceeds 5 MB maximum');
    const run = drive(params(), testConfig(), { model: [reply(media)], reactiveCompact: [compactFailed()] });
    expect(run.terminal).toMatchObject({ reason: 'image_error', apiError: media.apiError });
    expect(effectsOf(run, 'run_stop_failure_hooks')).toMatchObject([{ error: media }]);
    expect(effectsOf(run, 'run_stop_hooks')).toEqual([]);
  });
});
