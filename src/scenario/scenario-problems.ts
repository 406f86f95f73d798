/**
 * Every problem of a scenario file at once, not just the first: what `simulate --json` reports, so that a tool (or a
 * person fixing a generated file) sees them all in one pass. Pure: reads only the text.
 */
import { describeIssue } from './describe-issue.ts';
import { parseJsonText, ScenarioFileError } from './load-scenario.ts';
import { scenarioSchema } from './scenario-schema.ts';

export interface ScenarioProblem {
  /** Path inside the file (`params.messages[0].role`), or null for the whole file (not JSON). */
  path: string | null;
  expected: string;
}

/** The problems of `text` as a scenario, in the validator's order; empty when it is a valid scenario. */
export function scenarioProblems(text: string, file: string): ScenarioProblem[] {
  let data: unknown;
  try {
    data = parseJsonText(text, file);
  } catch (error) {
    if (error instanceof ScenarioFileError) return [{ path: null, expected: error.expected }];
    throw error;
  }
  const result = scenarioSchema.safeParse(data, { reportInput: true });
  return result.success ? [] : result.error.issues.map((issue) => describeIssue(issue, scenarioSchema, data));
}
