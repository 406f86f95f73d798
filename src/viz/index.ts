/** Visualisation: the statechart in standard formats, the offline HTML viewer of a session, live inspection. */
export { buildChart, type Chart, type ChartState, type ChartTransition } from './graph.ts';
export { exportJson, machineConfig } from './export-json.ts';
export { exportMermaid } from './export-mermaid.ts';
export { exportScxml } from './export-scxml.ts';
export { exportDot } from './export-dot.ts';
export { layoutChart, type ChartSvg } from './layout.ts';
export { viewerData, renderViewerHtml, ViewerInputError, type ViewerData, type EmbeddedRun, type EmbeddedChildRun } from './html.ts';
export { frameOf, type Frame } from './frames.ts';
export { parseSessionLog, formatSessionLog, type SessionForView, type ChildRunForView } from './session.ts';
export { SessionLogParseError } from '../replay/errors.ts';
export { loadSessionTree, withChildRuns, TreeLogError } from './session-tree.ts';
export { loadInspector, replayIntoInspector, InspectorUnavailableError } from './inspect.ts';
