/** The matcher of an SDK program's hooks (sdk-hooks.ts), as Claude Code reads it. */
import { describe, expect, it } from 'vitest';
import { matcherMatches } from '../../../src/agent-sdk/sdk-hooks.ts';

describe('matcherMatches', () => {
  it('matches all when absent, empty or *', () => {
    for (const matcher of [undefined, null, '', '*']) expect(matcherMatches(matcher, 'Bash')).toBe(true);
  });

  it('reads names, A|B lists and regular expressions', () => {
    expect(matcherMatches('Bash', 'Bash')).toBe(true);
    expect(matcherMatches('Bash', 'Write')).toBe(false);
    expect(matcherMatches('Write|Edit', 'Edit')).toBe(true);
    expect(matcherMatches('mcp__.*', 'mcp__db__query')).toBe(true);
    expect(matcherMatches('Wri', 'Write')).toBe(false);
    expect(matcherMatches('(', 'Bash')).toBe(false);
  });

  it('takes Agent (claude 2.1.334\'s name of the subagent tool) and Task for the same tool', () => {
    expect(matcherMatches('Agent', 'Task')).toBe(true);
    expect(matcherMatches('Bash|Agent', 'Task')).toBe(true);
    expect(matcherMatches('Ag.*', 'Task')).toBe(true);
    expect(matcherMatches('Task', 'Task')).toBe(true);
    expect(matcherMatches('Agent', 'Bash')).toBe(false);
  });
});
