/**
 * SCXML export (W3C State Chart XML 1.0) that a standard interpreter runs, with the ECMAScript datamodel. Pure,
 * from the chart.
 *
 * Mapping:
 * - `<state id="agentLoop">` wraps every non-final state and holds the machine root's transitions (`abort`,
 *   taken in any state); the 11 terminals are `<final>` children of `<scxml>`, so entering one ends the
 *   interpreter as a finished xstate machine ignores further events. A root transition into a descendant is
 *   `type="internal"` (xstate does not exit the root either).
 * - compound and atomic states are `<state>`; eventless transitions have no `event`, targetless ones no `target`.
 * - each action is `<log label="turnloop.action" expr="({name, params})"/>`, in the order xstate runs them
 *   (exit, transition, entry); a final's `<donedata>` carries its Terminal reason.
 * - a guard is the datamodel expression `tlGuard(_event, "name", params)`. The guards are TypeScript functions
 *   over the loop's context, which an SCXML datamodel does not hold, so the document evaluates them by
 *   *outcome*: `tlGuard` takes the next `{ name, params, result }` from the list the current event carries in
 *   `_event.data.guards` (the initial macrostep's list is the `tlInitialGuards` datamodel value, settable at
 *   start-up) and checks that its name and params are the ones asked for. A mismatch (a different guard asked,
 *   or none left) is recorded in `tlErrors` and answers false. Bind real guards by redefining `tlGuard` in the
 *   top-level `<script>`.
 * - the Continue reason of a transition is the foreign attribute `tl:continue` (interpreters ignore it).
 */
import { ALWAYS, buildChart, type Chart, type ChartState, type ChartTransition, type NamedRef } from './graph.ts';

export const TURNLOOP_SCXML_NS = 'https://github.com/turnloop/turnloop/scxml';
/** The `<log>` label of an action. */
export const SCXML_ACTION_LABEL = 'turnloop.action';

/** Escapes text for an XML attribute value or character data. */
export function xmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** The datamodel script: the guard-outcome reader described above. Plain ES5 (interpreters vary). */
const GUARD_SCRIPT = `
function tlSameParams(a, b) { return JSON.stringify(a === undefined ? null : a) === JSON.stringify(b === undefined ? null : b); }
function tlGuard(ev, name, params) {
  if (ev !== tlSeen) {
    tlSeen = ev;
    var given = ev && ev.data && ev.data.guards;
    tlQueue = (ev ? given || [] : tlInitialGuards).slice();
  }
  var next = tlQueue.shift();
  if (!next || next.name !== name || !tlSameParams(next.params, params)) {
    tlErrors.push({ asked: name, params: params === undefined ? null : params, given: next === undefined ? null : next, event: ev ? ev.name : null });
    return false;
  }
  return next.result === true;
}
`;

function refLiteral(ref: NamedRef): string {
  return JSON.stringify(ref.params ? { name: ref.name, params: ref.params } : { name: ref.name });
}

function condExpression(guard: NamedRef): string {
  const params = guard.params ? `, ${JSON.stringify(guard.params)}` : '';
  return `tlGuard(_event, ${JSON.stringify(guard.name)}${params})`;
}

function actionElements(actions: NamedRef[], indent: string): string[] {
  return actions.map((a) => `${indent}<log label="${SCXML_ACTION_LABEL}" expr="${xmlEscape(`(${refLiteral(a)})`)}"/>`);
}

function isDescendant(chart: Chart, id: string, ancestor: string | null): boolean {
  if (ancestor === null) return true;
  let state = chart.states.find((s) => s.id === id);
  while (state?.parent) {
    if (state.parent === ancestor) return true;
    state = chart.states.find((s) => s.id === state!.parent);
  }
  return false;
}

function transitionElement(chart: Chart, t: ChartTransition, indent: string): string[] {
  const internal = t.target !== null && isDescendant(chart, t.target, t.source);
  const attrs = [
    t.event !== ALWAYS ? ` event="${xmlEscape(t.event)}"` : '',
    t.guard ? ` cond="${xmlEscape(condExpression(t.guard))}"` : '',
    t.target !== null ? ` target="${xmlEscape(t.target)}"` : '',
    internal ? ' type="internal"' : '',
    t.continue ? ` tl:continue="${xmlEscape(t.continue)}"` : '',
  ].join('');
  if (t.actions.length === 0) return [`${indent}<transition${attrs}/>`];
  return [`${indent}<transition${attrs}>`, ...actionElements(t.actions, `${indent}  `), `${indent}</transition>`];
}

function stateElement(chart: Chart, state: ChartState, indent: string): string[] {
  const inner = `${indent}  `;
  const body: string[] = [];
  if (state.entry.length > 0) body.push(`${inner}<onentry>`, ...actionElements(state.entry, `${inner}  `), `${inner}</onentry>`);
  if (state.final) {
    const reason = state.terminal ?? state.key;
    body.push(`${inner}<donedata><param name="reason" expr="${xmlEscape(JSON.stringify(reason))}"/></donedata>`);
  }
  for (const t of chart.transitions.filter((t) => t.source === state.id)) body.push(...transitionElement(chart, t, inner));
  for (const child of chart.states.filter((s) => s.parent === state.id)) body.push(...stateElement(chart, child, inner));
  const tag = state.final ? 'final' : 'state';
  const initial = state.initial ? ` initial="${xmlEscape(state.initial)}"` : '';
  const open = `${indent}<${tag} id="${xmlEscape(state.id)}"${initial}`;
  return body.length === 0 ? [`${open}/>`] : [`${open}>`, ...body, `${indent}</${tag}>`];
}

/**
 * The statechart as an SCXML document.
 *
 * @example
 * exportScxml().match(/<final /g)?.length; // 10
 */
export function exportScxml(chart: Chart = buildChart()): string {
  const rootId = chart.machineId;
  const topLevel = chart.states.filter((s) => s.parent === null);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:tl="${TURNLOOP_SCXML_NS}" version="1.0" datamodel="ecmascript" name="${xmlEscape(rootId)}" initial="${xmlEscape(rootId)}">`,
    '  <datamodel>',
    '    <data id="tlInitialGuards" expr="[]"/>',
    '    <data id="tlQueue" expr="[]"/>',
    '    <data id="tlSeen" expr="null"/>',
    '    <data id="tlErrors" expr="[]"/>',
    '  </datamodel>',
    `  <script><![CDATA[${GUARD_SCRIPT}]]></script>`,
    `  <state id="${xmlEscape(rootId)}" initial="${xmlEscape(chart.initial)}">`,
  ];
  for (const t of chart.transitions.filter((t) => t.source === null)) lines.push(...transitionElement(chart, t, '    '));
  for (const state of topLevel.filter((s) => !s.final)) lines.push(...stateElement(chart, state, '    '));
  lines.push('  </state>');
  for (const state of topLevel.filter((s) => s.final)) lines.push(...stateElement(chart, state, '  '));
  lines.push('</scxml>');
  return `${lines.join('\n')}\n`;
}
