/**
 * The JSON Schema of scenario files, generated from the zod schema with zod 4's `z.toJSONSchema`, and the
 * section of `docs/scenarios.md` that carries it (a test fails when the doc is stale; regenerate it with
 * `npx tsx scripts/write-scenario-docs.ts`).
 *
 * The fake API validates an answer by dispatching on its keys (a transform, which JSON Schema cannot express);
 * for the document, the answer list is swapped for its structural twin built from the same zod pieces
 * (`fakeAnswerShapes`), so the schema still comes from the code that validates.
 */
import { z } from 'zod';
import { fakeAnswerShapes } from '../fake-api/index.ts';
import { agentListSchemaOf, scenarioObjectSchema } from './scenario-schema.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';

const BEGIN = '<!-- BEGIN GENERATED SCENARIO SCHEMA -->';
const END = '<!-- END GENERATED SCENARIO SCHEMA -->';

function answerListForDocs(): z.ZodType {
  const { blocks, reply, rawSse, error, repeat } = fakeAnswerShapes;
  const block = z.discriminatedUnion('type', [blocks.text, blocks.thinking, blocks.redacted_thinking, blocks.tool_use]);
  const replyDoc = reply.extend({ content: z.array(block), repeat }).describe('A reply, streamed as SSE (cut with cut_after_events).');
  return z.array(
    z.union([replyDoc, rawSse.extend({ repeat }).describe('Raw SSE text, sent as is.'), error.extend({ repeat }).describe('An HTTP error answer.')]),
  );
}

/** The JSON Schema (draft 2020-12) of a scenario file, as accepted on input (defaults are optional). */
export function scenarioJsonSchema(): Record<string, unknown> {
  const answers = answerListForDocs();
  const docSchema = scenarioObjectSchema.extend({
    model: answers.optional().describe('HTTP answers of the fake Messages API to the main model, in order; used up → 500.'),
    compactionModel: answers.optional().describe('Answers to compaction requests; absent → a short default summary for every one.'),
    agents: agentListSchemaOf(answers),
  });
  const schema = z.toJSONSchema(docSchema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any', reused: 'ref' }) as Record<string, unknown>;
  return { ...schema, title: 'turnloop scenario' };
}

/** The generated block of `docs/scenarios.md`, markers included. */
export function scenarioSchemaSection(): string {
  return `${BEGIN}\n\`\`\`json\n${JSON.stringify(scenarioJsonSchema(), null, 2)}\n\`\`\`\n${END}`;
}

/** `doc` with its generated block replaced by the current one (throws when the markers are missing). */
export function withFreshSchemaSection(doc: string): string {
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new TurnloopError('MISSING_GENERATED_BLOCK', `the document has no ${BEGIN} ... ${END} block`);
  return doc.slice(0, start) + scenarioSchemaSection() + doc.slice(end + END.length);
}
