/** `turnloop/inspector`: watch and step a running loop in the browser (docs/inspector.md). */
export { startInspector, sharedInspector, Inspector, type InspectorOptions } from './inspector.ts';
export { describeBreakpoint, type Breakpoint } from './breakpoints.ts';
export type { RunControlStatus } from './run-control.ts';
