/**
 * State names live in the chart only: code outside `src/machine` asks the effect protocol
 * (`src/machine/effect-protocol.ts`) what a state waits for, instead of comparing state values with names of its
 * own (renaming a state would silently break such a comparison). This scans `src/` for string literals that are a
 * non-final state's path or name.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loopMachine } from '../../src/machine/loop-machine.ts';

const ROOT = join(import.meta.dirname, '../..');

/**
 * Literals that are also the name of something else, and what (a state named after what it does shares its name).
 * Their uses are not state comparisons.
 */
const OTHER_MEANINGS: Record<string, string> = {
  autocompact: 'an effect type and a config feature',
  snip: 'a context layer',
  microcompact: 'a context layer and a config feature',
  contextCollapse: 'a config feature',
  tokenBudget: 'a loop param and a config feature',
  apiError: "an assistant message's field",
  stopHooks: 'a query option',
  sampling: "a scenario abort's phase (`during: 'sampling'`)",
};

type Node = { path: string[]; type: string; states: Record<string, Node> };

function stateNames(): Set<string> {
  const names = new Set<string>();
  const walk = (node: Node) => {
    if (node.path.length > 0 && node.type !== 'final') {
      names.add(node.path.join('.'));
      names.add(node.path[node.path.length - 1]!);
    }
    Object.values(node.states).forEach(walk);
  };
  walk(loopMachine.root as unknown as Node);
  return names;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Quoted literals in code (comment lines, which name states to explain them, are skipped). */
export function stateNameLiterals(source: string, names: ReadonlySet<string>): string[] {
  const found: string[] = [];
  const code = source
    .split('\n')
    .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line))
    .join('\n');
  for (const match of code.matchAll(/(['"])([A-Za-z][\w.]*)\1/g)) {
    const literal = match[2]!;
    if (names.has(literal) && !(literal in OTHER_MEANINGS)) found.push(literal);
  }
  return found;
}

describe('state names outside the machine', () => {
  const names = stateNames();

  it('appear nowhere in src/ outside src/machine', () => {
    const offenders = filesUnder(join(ROOT, 'src'))
      .filter((file) => !relative(ROOT, file).startsWith('src/machine/'))
      .flatMap((file) => stateNameLiterals(readFileSync(file, 'utf8'), names).map((name) => `${relative(ROOT, file)}: '${name}'`));
    expect(offenders).toEqual([]);
  });

  it('would be found (the check can fail)', () => {
    expect(names.has('exitLadder.stopHooks')).toBe(true);
    expect(stateNameLiterals(`if (value === 'exitLadder.stopHooks') return ['run_stop_hooks'];`, names)).toEqual(['exitLadder.stopHooks']);
    expect(stateNameLiterals(`case "runningTools":`, names)).toEqual(['runningTools']);
    expect(stateNameLiterals(" * svg.includes('data-state=\"exitLadder.stopHooks\"'); // a doc example", names)).toEqual([]);
  });
});
