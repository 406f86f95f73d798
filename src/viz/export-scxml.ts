/**
 * SCXML export (W3C State Chart XML 1.0). Pure, from the chart.
 *
 * Mapping: the machine root is a `<state id="agentLoop">` wrapping everything (its transitions, such as `abort`,
 * are taken in any state); compound and atomic states are `<state>`, the 10 terminals `<final>`; eventless
 * transitions have no `event` attribute and targetless ones no `target`, exactly SCXML's semantics. A guard is
 * the `cond` expression `name(params)`; actions are `<tl:action name=".."/>` elements of the turnloop
 * namespace (SCXML allows executable content from other namespaces), and the Continue reason is the attribute
 * `tl:continue`. Guards and actions are names, not code: an SCXML interpreter needs them bound to run it.
 */
import { ALWAYS, buildChart, type Chart, type ChartState, type ChartTransition, type NamedRef } from './graph.ts';

export const TURNLOOP_SCXML_NS = 'https://github.com/turnloop/turnloop/scxml';

/** Escapes text for an XML attribute value or character data. */
export function xmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

function condExpression(guard: NamedRef): string {
  return guard.params ? `${guard.name}(${JSON.stringify(guard.params)})` : `${guard.name}()`;
}

function actionElements(actions: NamedRef[], indent: string): string[] {
  return actions.map((a) => {
    const params = Object.entries(a.params ?? {}).map(([k, v]) => ` ${k}="${xmlEscape(typeof v === 'string' ? v : JSON.stringify(v))}"`);
    return `${indent}<tl:action name="${xmlEscape(a.name)}"${params.join('')}/>`;
  });
}

function transitionElement(t: ChartTransition, indent: string): string[] {
  const attrs = [
    t.event !== ALWAYS ? ` event="${xmlEscape(t.event)}"` : '',
    t.guard ? ` cond="${xmlEscape(condExpression(t.guard))}"` : '',
    t.target !== null ? ` target="${xmlEscape(t.target)}"` : '',
    t.continue ? ` tl:continue="${xmlEscape(t.continue)}"` : '',
  ].join('');
  if (t.actions.length === 0) return [`${indent}<transition${attrs}/>`];
  return [`${indent}<transition${attrs}>`, ...actionElements(t.actions, `${indent}  `), `${indent}</transition>`];
}

function stateElement(chart: Chart, state: ChartState, indent: string): string[] {
  const tag = state.final ? 'final' : 'state';
  const inner = `${indent}  `;
  const body: string[] = [];
  if (state.entry.length > 0) body.push(`${inner}<onentry>`, ...actionElements(state.entry, `${inner}  `), `${inner}</onentry>`);
  for (const t of chart.transitions.filter((t) => t.source === state.id)) body.push(...transitionElement(t, inner));
  for (const child of chart.states.filter((s) => s.parent === state.id)) body.push(...stateElement(chart, child, inner));
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
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:tl="${TURNLOOP_SCXML_NS}" version="1.0" name="${xmlEscape(rootId)}" initial="${xmlEscape(rootId)}">`,
    `  <state id="${xmlEscape(rootId)}" initial="${xmlEscape(chart.initial)}">`,
  ];
  for (const t of chart.transitions.filter((t) => t.source === null)) lines.push(...transitionElement(t, '    '));
  for (const state of chart.states.filter((s) => s.parent === null)) lines.push(...stateElement(chart, state, '    '));
  lines.push('  </state>', '</scxml>');
  return `${lines.join('\n')}\n`;
}
