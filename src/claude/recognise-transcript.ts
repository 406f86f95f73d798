/**
 * Whether a text is a Claude Code transcript at all, before it is checked run by run: a file of another kind (a
 * turnloop session log, a scenario, any JSON Lines) would otherwise parse as a transcript with no runs and "all 0
 * runs reproduce". Pure: reads only the text.
 *
 * A transcript is JSON Lines with at least one message line: `type` "user" or "assistant" with a `message` object.
 */

/** What the text is instead of a transcript, in a few words; undefined when it is one. */
export function notATranscript(text: string): string | undefined {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  let parsed = 0;
  for (const line of lines) {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      continue;
    }
    if (json === null || typeof json !== 'object' || Array.isArray(json)) continue;
    parsed += 1;
    const o = json as Record<string, unknown>;
    if (o.kind === 'header' && o.format === 'turnloop-session') {
      return 'a turnloop session log (its first line is a turnloop-session header); replay it with turnloop replay';
    }
    if ((o.type === 'user' || o.type === 'assistant') && o.message !== null && typeof o.message === 'object') return undefined;
  }
  if (parsed === 0) {
    const trimmed = text.trimStart();
    return trimmed.startsWith('{') || trimmed.startsWith('[') ? 'one JSON document spread over several lines, not JSON Lines' : 'no line that is a JSON object';
  }
  return `${parsed} JSON line(s), none of them a message (a line whose "type" is "user" or "assistant", with a "message")`;
}
