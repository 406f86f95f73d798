import { describe, expect, it } from 'vitest';
import { stripMedia } from '../../../src/context/media-strip.ts';
import type { Message } from '../../../src/messages/types.ts';
import { assistant, text, toolUse, toolResult, user } from './build.ts';

const png = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } } as const;
const pdf = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' } } as const;

describe('media strip (reactive compact on a media error)', () => {
  it('replaces images and documents, also inside tool results, by a text note', () => {
    const messages: Message[] = [
      user('u', [{ type: 'text', text: 'look' }, png, pdf]),
      assistant('a', 'r', toolUse('s', 'Screenshot')),
      toolResult('tr', 's', [{ type: 'text', text: 'shot:' }, png]),
    ];
    const out = stripMedia(messages);
    expect(out.removed).toBe(3);
    const json = JSON.stringify(out.messages);
    expect(json).not.toContain('"image"');
    expect(json).not.toContain('"document"');
    expect(json).toContain('Image (image/png) removed');
    expect(json).toContain('Document (application/pdf) removed');
    expect(out.messages.map((m) => m.uuid)).toEqual(['u', 'a', 'tr']);
    expect(out.messages[1]).toBe(messages[1]);
  });

  it('returns the same message objects when there is no media', () => {
    const messages: Message[] = [user('u', 'plain'), assistant('a', 'r', text('hi'))];
    const out = stripMedia(messages);
    expect(out.removed).toBe(0);
    out.messages.forEach((m, i) => expect(m).toBe(messages[i]));
  });
});
