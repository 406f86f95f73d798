import { describe, expect, it } from 'vitest';
import { LazyAbortController } from '../../../src/tools/lazy-abort-controller.ts';

describe('LazyAbortController behaves like an AbortController whose signal is built on demand', () => {
  it('aborts a signal read before the abort, with the reason', () => {
    const controller = new LazyAbortController();
    const signal = controller.signal;
    expect(signal.aborted).toBe(false);
    controller.abort('stop');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('stop');
    expect(controller.signal).toBe(signal);
  });

  it('gives a signal read after the abort already aborted, with the same reason', () => {
    const controller = new LazyAbortController();
    const reason = new Error('why');
    controller.abort(reason);
    expect(controller.aborted).toBe(true);
    expect(controller.signal.aborted).toBe(true);
    expect(controller.signal.reason).toBe(reason);
  });

  it('takes the first abort only, and defaults the reason to an AbortError', () => {
    const controller = new LazyAbortController();
    controller.abort();
    controller.abort('later');
    expect(controller.reason).toBeInstanceOf(DOMException);
    expect((controller.reason as DOMException).name).toBe('AbortError');
    expect(controller.signal.reason).toBe(controller.reason);
  });

  it('runs onAbort listeners once, before the signal listeners, and at once when already aborted', () => {
    const controller = new LazyAbortController();
    const calls: string[] = [];
    controller.signal.addEventListener('abort', () => calls.push('signal'));
    controller.onAbort(() => calls.push('listener'));
    controller.abort('x');
    controller.abort('y');
    controller.onAbort(() => calls.push('late'));
    expect(calls).toEqual(['listener', 'signal', 'late']);
  });
});
