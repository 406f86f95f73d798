/**
 * A recording to a file writes each version-3 commit group as the UTF-8 bytes it hashed (`groupBytes` in
 * session-recorder.ts): text outside ASCII, and groups larger than the recorder's buffer, must still give the
 * bytes of the lines as text, with every hash verified on replay.
 */
import { readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSessionLogText } from '../../../src/replay/parse-session-log.ts';
import { replay } from '../../../src/replay/replay.ts';
import { lineHash } from '../../../src/replay/stable-hash.ts';
import { recordRun, toolTurns } from './fixtures.ts';

/** The hash chain of a version-3 log recomputed from its text: each group's lines up to its hash member. */
function chainOf(text: string): { hashes: string[]; recorded: string[] } {
  const lines = text.trimEnd().split('\n');
  let previous = JSON.parse(lines[0]).initialHash as string;
  const hashes: string[] = [];
  const recorded: string[] = [];
  let group = '';
  for (const line of lines.slice(1)) {
    const cut = line.lastIndexOf(',"hash":"');
    if (cut === -1) {
      group += `${line}\n`;
      continue;
    }
    previous = lineHash(previous, group + line.slice(0, cut));
    hashes.push(previous);
    recorded.push(JSON.parse(line).hash);
    group = '';
  }
  return { hashes, recorded };
}

describe('commit groups written as bytes', () => {
  it('writes text outside ASCII as UTF-8, hashed as written, and the log replays verified', async () => {
    const script = toolTurns(3, 'é 日本語 😀 \u2028 ');
    script.model[0].content[0] = { type: 'text', text: 'Lecture de la partie 1… ✓ 𝄞' };
    const run = await recordRun(script);
    const text = readFileSync(run.path, 'utf8');
    expect(text).toContain('日本語 😀');
    expect(text).toContain('𝄞');
    const { hashes, recorded } = chainOf(text);
    expect(hashes.length).toBeGreaterThan(3);
    expect(recorded).toEqual(hashes);
    expect(run.recorder.bytes).toBe(statSync(run.path).size);
    expect(replay(run.path).terminal).toEqual(run.terminal);
  });

  it('writes groups larger than the recorder buffer (grown, then given back) whole', async () => {
    const big = `${'ü'.repeat(40_000)}${'x'.repeat(40_000)}`;
    const script = toolTurns(3);
    script.tools[0].results[0] = { content: big };
    script.tools[0].results[2] = { content: `${big}${big}` };
    const run = await recordRun(script);
    const text = readFileSync(run.path, 'utf8');
    const events = parseSessionLogText(text).events;
    expect(events.length).toBeGreaterThan(10);
    expect(text.split(big).length - 1).toBe(3);
    const { hashes, recorded } = chainOf(text);
    expect(recorded).toEqual(hashes);
    expect(run.recorder.bytes).toBe(statSync(run.path).size);
    expect(replay(run.path).terminal).toEqual(run.terminal);
  });
});
