/**
 * `parseEventText` (src/replay/event-text.ts) gives what `JSON.parse` gives, on the texts it builds without the parser
 * and on every other text: deep-equal, members in the same order, a fresh object per call, the same error.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseEventText } from '../../../src/replay/event-text.ts';
import { propertyOptions } from '../../property/settings.ts';
import { outcome } from '../../helpers/json-outcome.ts';

const COMMON = [
  '{"type":"tools_finished"}',
  '{"type":"attachments_collected","attachments":[]}',
  '{"type":"context_layer_result","layer":"tool_result_budget","edits":[],"tokensFreed":0}',
  '{"type":"context_layer_result","layer":"microcompact","edits":[],"tokensFreed":0}',
  '{"type":"model_done","usage":{"input_tokens":1000,"output_tokens":20},"stopReason":"tool_use"}',
  '{"type":"model_done","usage":{"input_tokens":0,"output_tokens":123456789012345},"stopReason":""}',
];

function expectAsJsonParse(text: string, prefix = 'x', suffix = '\n') {
  const whole = `${prefix}${text}${suffix}`;
  expect(outcome(() => parseEventText(whole, prefix.length, prefix.length + text.length)), text).toEqual(outcome(() => JSON.parse(text)));
}

describe('parseEventText', () => {
  it('builds the common texts as JSON.parse reads them, a fresh object each time', () => {
    for (const text of COMMON) {
      expectAsJsonParse(text);
      const first = parseEventText(text, 0, text.length) as Record<string, unknown>;
      const second = parseEventText(text, 0, text.length) as Record<string, unknown>;
      expect(second).not.toBe(first);
      for (const key of Object.keys(first)) if (typeof first[key] === 'object') expect(second[key]).not.toBe(first[key]);
    }
  });

  it('reads every other spelling through JSON.parse: spaces, other members, escapes, other values, no JSON', () => {
    const layer = COMMON[2];
    const variants = [
      '{"type": "tools_finished"}',
      '{"type":"tools_finished","x":1}',
      '{"type":"tools_finishe"}',
      '{"type":"attachments_collected","attachments":[ ]}',
      '{"type":"attachments_collected","attachments":[{}]}',
      layer.replace('"tool_result_budget"', '"tool_\\u0072esult_budget"'),
      layer.replace('"tool_result_budget"', '"a\\"b"'),
      layer.replace('"tool_result_budget"', '"a\tb"'),
      layer.replace('"tool_result_budget"', '""'),
      layer.replace('"tool_result_budget"', '"a","x":"b"'),
      layer.replace('"tokensFreed":0', '"tokensFreed":1'),
      layer.replace('"edits":[]', '"edits":[1]'),
      layer.replace('"layer":', '"layer" :'),
      `${layer.slice(0, -1)}`,
      `${layer} `,
      '{"type":"context_layer_result","layer":"","edits":[],"tokensFreed":0}',
      '{"type":"model_done","usage":{"input_tokens":0,"output_tokens":12,"cache_creation_input_tokens":null,"cache_read_input_tokens":7},"stopReason":"end_turn"}',
      '{"type":"model_done","usage":{"output_tokens":2,"input_tokens":1},"stopReason":"x"}',
      '{"type":"model_done","usage":{"input_tokens":1,"input_tokens":2,"output_tokens":3},"stopReason":"x"}',
      '{"type":"model_done","usage":{"__proto__":1,"output_tokens":3},"stopReason":"x"}',
      '{"type":"model_done","usage":{"__proto__":null},"stopReason":"x"}',
      '{"type":"model_done","usage":{},"stopReason":"x"}',
      '{"type":"model_done","usage":{"input_tokens":01},"stopReason":"x"}',
      '{"type":"model_done","usage":{"input_tokens":-1},"stopReason":"x"}',
      '{"type":"model_done","usage":{"input_tokens":1.5},"stopReason":"x"}',
      '{"type":"model_done","usage":{"input_tokens":1e3},"stopReason":"x"}',
      '{"type":"model_done","usage":{"input_tokens":1234567890123456},"stopReason":"x"}',
      '{"type":"model_done","usage":{"input_tokens":1},"stopReason":null}',
      '{"type":"model_done","usage":{"input_tokens":1},"stopReason":"a\\"b"}',
      '{"type":"model_done","usage":{"Input_tokens":1},"stopReason":"x"}',
      '{"type":"model_done","usage":{"input_tokens":1},"stopReason":"x","extra":1}',
      '{"type":"model_done","usage":{"input_tokens":1}}',
      '{"type":"model_done","stopReason":"x"}',
      '{"type":"model_done","usage":{"input_tokens":1,},"stopReason":"x"}',
      '{"type":"model_done","usage":{"input_tokens":nul},"stopReason":"x"}',
      '{"type":"model_message"}',
      '{"type":"t"}',
      '{"type":""}',
      '{}',
      '',
    ];
    for (const text of variants) expectAsJsonParse(text);
  });

  it('agrees with JSON.parse on texts put together from pieces of the common ones', () => {
    const pieces = [
      '{"type":"tools_finished"}', '{"type":"attachments_collected","attachments":[]}', '{"type":"context_layer_result","layer":"', '","edits":[],"tokensFreed":0}', 'snip', '"', '\\', '\u0001', ' ', '}', '{', ',', 'é',
      '{"type":"model_done","usage":{', '"input_tokens":', '"output_tokens":', '"__proto__":', '"a":', '0', '12', 'null', '},"stopReason":"', 'end_turn"}', '"}',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 6 }), fc.string({ maxLength: 3 }), (parts, around) => {
        expectAsJsonParse(parts.join(''), around, around);
      }),
      propertyOptions(1000),
    );
  });
});
