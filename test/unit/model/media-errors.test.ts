import { describe, expect, it } from 'vitest';
import { classifyModelError } from '../../../src/model/classify-error.ts';
import { eventTypes, modelMessages, runCall } from './helpers.ts';

const apiError = (status: number, message: string, type = 'invalid_request_error') => ({ status, error: { type, message } });

describe('media errors', () => {
  it('an image that is too large becomes a media_size API-error message, then model_done', async () => {
    const text = 'messages.0.content.1.image.source.base64: image exceeds 5 MB maximum: 7340032 bytes > 5242880 bytes';
    const { api, events } = await runCall({ model: [apiError(400, text)] });
    expect(eventTypes(events)).toEqual(['model_message', 'model_done']);
    expect(modelMessages(events)[0].apiError).toEqual({ kind: 'media_size', text, status: 400, errorType: 'invalid_request_error' });
    expect(api.requests).toHaveLength(1);
  });

  it.each([
    'messages.0.content.0.pdf.source.base64.data: A maximum of 100 PDF pages may be provided.',
    'The PDF document is too large to process',
    'Too many images in this request: at most 100 are allowed',
    'image dimensions exceed max allowed size: 8000 pixels',
  ])('classifies %j as media_size', (text) => {
    expect(classifyModelError({ status: 400, apiMessage: text }).kind).toBe('media_size');
  });

  // The original's image_error is a client-side size/resize check that throws; an API 400 about an image is an
  // API-error message like any other 400 (docs/loop.md §4.5).
  it('an image the API could not process is an invalid_request API-error message, not a thrown error', async () => {
    const { events } = await runCall({ model: [apiError(400, 'Could not process image')] });
    expect(eventTypes(events)).toEqual(['model_message', 'model_done']);
    expect(modelMessages(events)[0].apiError).toEqual({
      kind: 'invalid_request',
      text: 'Could not process image',
      status: 400,
      errorType: 'invalid_request_error',
    });
  });

  it('does not mistake a prompt-too-long text for a media error', () => {
    expect(classifyModelError({ status: 400, apiMessage: 'prompt is too long: 1 tokens > 0 maximum' }).kind).toBe('prompt_too_long');
    expect(classifyModelError({ status: 400, apiMessage: 'tools.0.name: bad' }).kind).toBe('invalid_request');
  });
});
