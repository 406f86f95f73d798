import { describe, expect, it } from 'vitest';
import { classifyModelError } from '../../../src/effects/model/classify-error.ts';
import { eventTypes, modelMessages, runCall } from './helpers.ts';

const apiError = (status: number, message: string, type = 'invalid_request_error') => ({ status, error: { type, message } });

describe('media errors', () => {
  it('an image that is too large becomes a media_size API-error message, then model_done', async () => {
    const text = 'messages.0.content.1.image.source.base64: image exceeds 5 MB maximum: 7340032 bytes > 5242880 bytes';
    const { api, events } = await runCall({ model: [apiError(400, text)] });
    expect(eventTypes(events)).toEqual(['model_message', 'model_done']);
    expect(modelMessages(events)[0].apiError).toEqual({ kind: 'media_size', text });
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

  it('an image that could not be processed ends in model_error kind image', async () => {
    const { events } = await runCall({ model: [apiError(400, 'Could not process image')] });
    expect(events).toEqual([
      { type: 'model_error', error: { kind: 'image', message: 'Could not process image', status: 400, type: 'invalid_request_error' } },
    ]);
  });

  it('does not mistake a prompt-too-long text for a media error', () => {
    expect(classifyModelError({ status: 400, apiMessage: 'prompt is too long: 1 tokens > 0 maximum' }).kind).toBe('prompt_too_long');
    expect(classifyModelError({ status: 400, apiMessage: 'tools.0.name: bad' }).kind).toBe('invalid_request');
  });
});
