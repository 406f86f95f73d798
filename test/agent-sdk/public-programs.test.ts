/**
 * Programs nobody in this repository wrote the harness for (issue #38, "tried as a new user would"): each is
 * written the way the SDK's guides and public projects write theirs (programs/public-*.ts), and runs unchanged
 * against the real `claude` and against `turnloop`, on one offline fake-API script (run-offline.sh). The suite
 * compares what the program printed, what it returned or threw, and the files it left, plus how many requests the
 * model received; and it holds both engines to the facts each program exists to show.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, type EngineName } from './harness/engines.ts';
import { runProgram, type ProgramRun } from './harness/sdk-program.ts';
import { PUBLIC_DIFFERENCES, TURNLOOP_ONLY_FILES, fileDifferences, printedDifferenceLines, returnedDifference } from './known-differences.ts';
import { PUBLIC_PROGRAMS } from './programs/public-index.ts';
import { asSdkProgram } from './programs/public-runner.ts';

interface Observed {
  printed: string[];
  returned?: unknown;
  threw?: string;
  files: Record<string, string>;
}

/** What each program must show on both engines (seen with claude 2.1.334): without these, two empty runs would compare equal. */
const FACTS: Record<string, (seen: Observed, run: ProgramRun) => void> = {
  'public: code review with a preset prompt, settingSources and a skill': (seen, run) => {
    expect(seen.returned).toBe('add: subtracts instead of adding (line 2).');
    expect(seen.printed).toContain('has the review skill: true');
    const system = JSON.stringify((run.requests.at(-1)?.body as { system?: unknown })?.system);
    expect(system).toContain('Keep every review under twenty words.');
    expect(JSON.stringify(run.requests.at(-1)?.body)).toContain('Reviews name the function and the line.'); // CLAUDE.md
    expect(JSON.stringify(run.requests.at(-1)?.body)).toContain('list each bug as'); // the skill's body
  },
  'public: a hook that stops a deploy, canUseTool rewriting a path': (seen, run) => {
    // The stop lets the allowed call run, then ends the turn as a success with no further request.
    expect(seen.returned).toBe('success / hook_stopped / is_error=false');
    expect(seen.files).toMatchObject({ 'drafts/CHANGELOG.md': '## 1.2.0\n- faster start\n', 'deployed.txt': 'shipped\n' });
    expect(seen.files).not.toHaveProperty('CHANGELOG.md');
    expect(seen.printed).toContain('audit: Write CHANGELOG.md');
    expect(run.unusedAnswers).toBe(1);
  },
  'public: structured output from a Zod schema after reading a file': (seen) => {
    expect(seen.returned).toEqual({ vendor: 'ACME Tools', total: 15.75, lines: [{ item: 'hammer', amount: 12.5 }, { item: 'nails', amount: 3.25 }] });
    expect(seen.printed).toContain("tool error: Output does not match required schema: /lines/0: must have required property 'amount'");
    expect(seen.printed).toContain('result text is the JSON: true');
  },
  'public: resume by the init session id, then stream the answer': (seen, run) => {
    expect(seen.printed).toEqual([
      'first: Nice to meet you, Ada.',
      'second: success "Your name is Ada." after 1 turn(s)',
      'streamed: Your name is Ada. (in deltas)',
      'same session: true',
    ]);
    expect(JSON.stringify(run.requests.at(-1)?.body)).toContain('Hi, my name is Ada.');
  },
  'public: streaming input chat with an interrupt, then another message': (seen, run) => {
    expect(seen.returned).toEqual(['success', 'error_during_execution', 'success']);
    expect(seen.printed).toContain('claude: Goodbye!');
    // The third request carries the interrupted exchange and the interruption note (each engine words it its own
    // way: claude "[Request interrupted by user]", turnloop its own text, Extension ownMessageTexts).
    expect(JSON.stringify(run.requests.at(-1)?.body)).toContain('Tell me a long story.');
    expect(JSON.stringify(run.requests.at(-1)?.body)).toMatch(/\[[^\]]*interrupted[^\]]*\]/);
  },
  'public: the agents option with allowedTools, one delegation': (seen, run) => {
    expect(seen.printed).toEqual(['agents: fact-checker, writer', 'delegating to fact-checker', 'report received: mentions 330 m', 'success in 2 turns']);
    // The subagent's requests carry its own prompt as the system prompt.
    expect(run.requests.some((r) => String(JSON.stringify((r.body as { system?: unknown }).system)).includes('You check facts.'))).toBe(true);
  },
  'public: SDK MCP tools, an allowedTools Bash rule and env': (seen) => {
    expect(seen.returned).toEqual([{ title: 'buy milk', priority: 'high' }, { title: 'call the plumber', priority: 'low' }]);
    expect(seen.printed).toContain('ok: ada'); // the program's env reached the command
    expect(seen.printed).toContain('success, 6 turns, 1 denied');
    expect(seen.files).not.toHaveProperty('owner.txt');
  },
  'public: cancel with an AbortController while a command runs': (seen) => {
    expect(seen.printed).toEqual(['cancel pressed', 'cancelled: Error', 'saw a result: false']);
    expect(seen.files).not.toHaveProperty('finished.txt');
  },
  'public: additionalDirectories with acceptEdits and disallowedTools': (seen) => {
    expect(seen.returned).toEqual({ marker: 'app.config\n' });
    expect(seen.printed).toEqual([
      'web tools offered: false; mode acceptEdits',
      'toolu_read: ok',
      'toolu_edit: ok',
      'toolu_write: ok',
      'success after 4 turns; denied nothing',
    ]);
  },
  'public: maxTurns hit, caught, then resumed with more turns': (seen) => {
    expect(seen.printed).toEqual([
      'first run threw: Claude Code returned an error result: Reached maximum number of turns (1)',
      'first run: error_max_turns (error), 2 turns',
      'second run: success, 2 turns: Both files written.',
      'same session: true',
    ]);
    expect(seen.files).toMatchObject({ 'a.txt': 'A\n', 'b.txt': 'B\n' });
  },
  'public: hooks on the session life cycle, with regex matchers': (seen, run) => {
    // The Read|Glob matcher leaves the Task call out; the failed Read is PostToolUseFailure's, not PostToolUse's.
    expect(seen.printed.filter((line) => !/subagent|after (Agent|Task)/.test(line))).toEqual(['prompt', 'before Glob', 'after Glob', 'before Read', 'failed Read', 'stop']);
    expect(seen.returned).toBe('One thing to do: ship it.');
    expect(JSON.stringify(run.requests[0]?.body)).toContain('The team ships on Fridays.');
  },
  'public: canUseTool answering "always allow" with updatedPermissions': (seen) => {
    expect(seen.printed[0]).toMatch(/^prompt #1: Bash/);
    expect(seen.printed).toContain('success, 3 turns');
    expect(seen.printed).toContain('folders: debug=true release=true');
  },
  'public: setPermissionMode and status calls between streamed messages': (seen) => {
    // After setPermissionMode('acceptEdits') the Write runs without asking the (denying) canUseTool.
    expect(seen.printed).toEqual(['result 1: success', 'mcp servers: 0', 'commands listed: true', 'result 2: success', 'canUseTool asked 0 time(s)']);
    expect(seen.files).toMatchObject({ 'plan.md': '# Plan\n1. ship\n' });
  },
};

/**
 * What a run is compared on: its observations without the printed lines only this engine prints
 * (`PUBLIC_DIFFERENCES`) and, for turnloop, without its session logs (Extension `sdkSessionLog`).
 */
function comparable(name: string, engine: EngineName, run: ProgramRun): Observed {
  const seen = observedOf(run);
  const drop = new Set(printedDifferenceLines(name, engine));
  const onlyHere = new Set(fileDifferences(name, engine));
  const files = Object.fromEntries(Object.entries(seen.files).filter(([path]) => !onlyHere.has(path) && (engine === 'claude' || !TURNLOOP_ONLY_FILES.test(path))));
  const returned = returnedDifference(name, engine) ? { returned: '(a listed difference)' } : {};
  return { ...seen, printed: seen.printed.filter((line) => !drop.has(line)), files, ...returned };
}

const runs = new Map<string, Partial<Record<EngineName, ProgramRun>>>();
const observedOf = (run: ProgramRun) => run.observed as unknown as Observed;

describe.each(PUBLIC_PROGRAMS.map((program) => [program.name, program] as const))('%s', (name, program) => {
  beforeAll(async () => {
    const both: Partial<Record<EngineName, ProgramRun>> = {};
    for (const engine of ENGINES) both[engine] = await runProgram(asSdkProgram(program), engine);
    runs.set(name, both);
    if (process.env.PRINT_PUBLIC === '1') {
      for (const engine of ENGINES) console.log(`\n## ${name} (${engine})\n${JSON.stringify(both[engine]?.observed, null, 1)}\nstderr: ${both[engine]?.stderr.slice(0, 2000)}`);
    }
  });

  for (const engine of ENGINES) {
    it(`${engine}: the program runs to its end and shows its facts`, () => {
      const run = runs.get(name)?.[engine];
      if (!run) throw new Error('no run');
      expect(run.error, 'the runner itself failed or timed out').toBeUndefined();
      expect(run.unrouted, 'requests the fake API has no route for').toEqual([]);
      FACTS[name]?.(observedOf(run), run);
    });
  }

  it('turnloop: the same printed lines, return value and files as claude, after as many requests', () => {
    const { claude, turnloop } = runs.get(name) ?? {};
    if (!claude || !turnloop) throw new Error('no run');
    expect(comparable(name, 'turnloop', turnloop)).toEqual(comparable(name, 'claude', claude));
    expect(turnloop.requests.length).toBe(claude.requests.length);
  });

  it('each listed difference is still seen, and turnloop keeps its session log', () => {
    const both = runs.get(name) ?? {};
    for (const engine of ENGINES) {
      const printed = both[engine] ? observedOf(both[engine]).printed : [];
      expect(printedDifferenceLines(name, engine).filter((line) => !printed.includes(line)), `${engine} no longer prints these`).toEqual([]);
      const files = both[engine] ? observedOf(both[engine]).files : {};
      expect(fileDifferences(name, engine).filter((path) => !(path in files)), `${engine} no longer writes these`).toEqual([]);
      const returned = returnedDifference(name, engine);
      if (returned && both[engine]) expect(observedOf(both[engine]).returned, `${engine} returns something else now`).toEqual(returned.returned);
    }
    const turnloopFiles = Object.keys(both.turnloop ? observedOf(both.turnloop).files : {});
    expect(turnloopFiles.some((path) => TURNLOOP_ONLY_FILES.test(path))).toBe(true);
  });
});

it('every public program has its facts', () => {
  expect(PUBLIC_PROGRAMS.map((p) => p.name).filter((n) => !FACTS[n])).toEqual([]);
  expect(Object.keys(PUBLIC_DIFFERENCES).filter((n) => !PUBLIC_PROGRAMS.some((p) => p.name === n))).toEqual([]);
});
