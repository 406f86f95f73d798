/**
 * The logged JSON text of a commit group's events, for the recorder (`session-recorder.ts`), redacted. The events
 * nearly every turn logs alike are written from templates: a context layer that changed nothing, the end of a tool
 * batch, no attachments, the end of a reply with its two token counts. Most of a turn's lines are these, and
 * `JSON.stringify` of so short an object costs mostly the call.
 *
 * Invariants:
 * - The text is exactly `JSON.stringify(event)`, or `null` when the event is not exactly of the expected shape
 *   (another member, members in another order, a `toJSON`, a layer name or stop reason outside the known sets, a
 *   number that is not finite): the caller then serialises it as any other.
 * - The text holds nothing a secret check can find but its fixed words, known names and numbers
 *   (`test/unit/replay/event-json.test.ts` holds every such text to the redactor's verdict), so it may be left out
 *   of the check when no literal secret value nor extra pattern is being masked.
 * The replay side reads the same texts back without the parser (`event-text.ts`).
 */
import { CONTEXT_LAYERS } from '../data/effects.ts';
import type { LoopEvent } from '../data/events.ts';
import type { Redactor } from './redact.ts';

const LAYERS: ReadonlySet<string> = new Set(CONTEXT_LAYERS);
/** The Messages API's stop reasons. */
const STOP_REASONS: ReadonlySet<string> = new Set(['end_turn', 'tool_use', 'max_tokens', 'stop_sequence', 'pause_turn', 'refusal']);

const TOOLS_FINISHED_MEMBERS = ['type'];
const ATTACHMENTS_MEMBERS = ['type', 'attachments'];
const LAYER_RESULT_MEMBERS = ['type', 'layer', 'edits', 'tokensFreed'];
const MODEL_DONE_MEMBERS = ['type', 'usage', 'stopReason'];
const USAGE_MEMBERS = ['input_tokens', 'output_tokens'];

/**
 * Whether `value` has exactly these enumerable members, in this order (what `JSON.stringify` writes), and no
 * `toJSON` of its own or inherited. `for…in` also lists inherited enumerable members, which only makes it fail.
 */
function hasExactly(value: object, members: readonly string[]): boolean {
  if ((value as { toJSON?: unknown }).toJSON !== undefined) return false;
  let i = 0;
  for (const key in value) {
    if (key !== members[i]) return false;
    i++;
  }
  return i === members.length;
}

function isEmptyArray(value: unknown): boolean {
  return Array.isArray(value) && value.length === 0 && (value as { toJSON?: unknown }).toJSON === undefined;
}

/** A number `JSON.stringify` writes as `String(n)` (finite; -0 is written "0" by both). */
function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function modelDoneJson(event: object): string | null {
  if (!hasExactly(event, MODEL_DONE_MEMBERS)) return null;
  const { usage, stopReason } = event as { usage: unknown; stopReason: unknown };
  if (typeof usage !== 'object' || usage === null || !hasExactly(usage, USAGE_MEMBERS)) return null;
  const { input_tokens: input, output_tokens: output } = usage as { input_tokens: unknown; output_tokens: unknown };
  if (!isFiniteNumber(input) || !isFiniteNumber(output)) return null;
  if (stopReason !== null && !(typeof stopReason === 'string' && STOP_REASONS.has(stopReason))) return null;
  const reason = stopReason === null ? 'null' : `"${stopReason}"`;
  return `{"type":"model_done","usage":{"input_tokens":${String(input)},"output_tokens":${String(output)}},"stopReason":${reason}}`;
}

/** `JSON.stringify(event)` for the common shapes above, else `null` (see the module comment). */
export function commonEventJson(event: LoopEvent): string | null {
  switch (event.type) {
    case 'tools_finished':
      return hasExactly(event, TOOLS_FINISHED_MEMBERS) ? '{"type":"tools_finished"}' : null;
    case 'attachments_collected':
      return hasExactly(event, ATTACHMENTS_MEMBERS) && isEmptyArray(event.attachments) ? '{"type":"attachments_collected","attachments":[]}' : null;
    case 'context_layer_result': {
      if (!hasExactly(event, LAYER_RESULT_MEMBERS) || !isEmptyArray(event.edits)) return null;
      const { layer, tokensFreed } = event as { layer: unknown; tokensFreed: unknown };
      if (typeof layer !== 'string' || !LAYERS.has(layer) || !isFiniteNumber(tokensFreed)) return null;
      return `{"type":"context_layer_result","layer":"${layer}","edits":[],"tokensFreed":${String(tokensFreed)}}`;
    }
    case 'model_done':
      return modelDoneJson(event);
    default:
      return null;
  }
}

/**
 * The logged JSON text of each step's event, redacted. The check for secrets runs once over all of them joined:
 * a text clean as a whole is clean in each of its parts, and only when it is not is each event checked (and
 * masked) on its own. The common events' templates (`commonEventJson`) are left out of that check when
 * `checksCommon` is false (no literal secret value nor extra pattern is masked): their texts hold no word the check
 * looks for. Stops before a step whose event cannot be serialised, returning what came before it and the failure.
 */
export function loggedEventJsons(steps: readonly { event: LoopEvent }[], redact: Redactor, checksCommon: boolean): { jsons: string[]; failure: unknown } {
  const jsons: string[] = [];
  let checked = '';
  let failure: unknown = null;
  for (let i = 0; i < steps.length; i++) {
    const event = steps[i].event;
    let json: string | null;
    try {
      json = commonEventJson(event);
      if (json === null) json = JSON.stringify(event);
      else if (!checksCommon) {
        jsons.push(json);
        continue;
      }
    } catch (caught) {
      failure = caught;
      break;
    }
    jsons.push(json);
    checked = checked === '' ? json : `${checked}\n${json}`;
  }
  if (checked !== '' && !redact.isCleanJson(checked)) for (let i = 0; i < jsons.length; i++) jsons[i] = redact.toJson(steps[i].event);
  return { jsons, failure };
}
