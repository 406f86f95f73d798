/**
 * The viewer page on a generated 1,000-round session (about 8,000 events) grows by at most ~1 KB per event:
 * the page embeds the events and folds them itself, so its size follows the log, not the steps × state.
 */
import { describe, expect, it } from 'vitest';
import { renderViewerHtml, viewerData } from '../../../src/viz/html.ts';
import { parseSessionLog } from '../../../src/viz/session.ts';
import { longSession, minimalLog } from './fixtures.ts';

const MAX_BYTES_PER_EVENT = 1024;

describe('the viewer page on a 1,000-round session', () => {
  it('has about 8,000 events and grows by at most ~1 KB per event', () => {
    const log = minimalLog(longSession(1000));
    const session = parseSessionLog(log);
    expect(session.events.length).toBeGreaterThanOrEqual(8000);
    const html = renderViewerHtml(viewerData(session));
    const empty = renderViewerHtml(viewerData({ ...session, events: [] }));
    const perEvent = (html.length - empty.length) / session.events.length;
    console.log(`viewer: ${session.events.length} events, log ${log.length} bytes, HTML ${html.length} bytes, ${perEvent.toFixed(0)} bytes per event (page without events: ${empty.length} bytes)`);
    expect(perEvent).toBeLessThanOrEqual(MAX_BYTES_PER_EVENT);
    // The page is the fixed part plus the events: not a frame per step.
    expect(html.length).toBeLessThan(empty.length + log.length);
  });
});
