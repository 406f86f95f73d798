/**
 * `viewerData()` from plain JavaScript: a log's text works as well as `parseSessionLog()`'s result, and anything
 * else (a parsed log from `turnloop/replay`, say) is refused with a message that says what to pass.
 */
import { describe, expect, it } from 'vitest';
import { viewerData, ViewerInputError } from '../../../src/viz/html.ts';
import { parseSessionLog } from '../../../src/viz/session.ts';
import { parseSessionLogText } from '../../../src/replay/parse-session-log.ts';
import { minimalLog, recordedLog, toolUsingSession } from './fixtures.ts';

describe('viewerData input', () => {
  it('takes a log text, recorded or minimal, and gives the same data as the parsed session', () => {
    for (const text of [recordedLog(toolUsingSession()), minimalLog(toolUsingSession())]) {
      const fromText = viewerData(text);
      expect(fromText).toEqual(viewerData(parseSessionLog(text)));
      expect(fromText.session).not.toBeNull();
      expect(fromText.sessionId).toBe(parseSessionLog(text).config.sessionId);
    }
  });

  it('refuses replay\'s parsed log with a message that says what to pass instead', () => {
    const parsed = parseSessionLogText(recordedLog(toolUsingSession()));
    expect(() => viewerData(parsed as never)).toThrow(ViewerInputError);
    expect(() => viewerData(parsed as never)).toThrow(/takes a session log's text or parseSessionLog\(text\)'s result, got an object with .*pass its text instead/);
    expect(() => viewerData(42 as never)).toThrow(/got number/);
  });

  it('still draws the chart alone for null', () => {
    expect(viewerData(null).session).toBeNull();
  });
});
