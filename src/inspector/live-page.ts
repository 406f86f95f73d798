/**
 * The inspector's page: the offline viewer page (`src/viz/html.ts`, one implementation for both) with the
 * session so far embedded, plus the live client that follows the stream and drives the run control.
 */
import { renderViewerHtml, viewerData } from '../viz/html.ts';
import { parseSessionLog } from '../viz/session.ts';
import { LIVE_CLIENT_JS } from './live-client.ts';
import type { LiveSession } from './live-session.ts';

// The live client prepends the bar to <body>, whose grid (viewer.css) has one row per region: every region gets
// its row by name here, so the bar adds a row on top instead of shifting the header and main area down a row.
const LIVE_CSS = `
body { grid-template-rows: auto auto minmax(0, 1fr); }
body.with-session { grid-template-rows: auto var(--header-height) minmax(0, 1fr); }
body > #live-bar { grid-row: 1; }
body > header { grid-row: 2; }
body > main { grid-row: 3; }
#live-bar { display: flex; flex-wrap: wrap; gap: .5em; align-items: center; padding: .4em .8em; background: #1d2733; color: #f3f6f9; font: 13px system-ui, sans-serif; position: sticky; top: 0; z-index: 10; }
#live-bar button { font: inherit; padding: .15em .6em; }
#live-bar fieldset { display: inline-flex; gap: .6em; align-items: center; border: 1px solid #55677a; padding: .1em .5em; margin: 0; }
#live-bar legend { padding: 0 .3em; }
#live-bar a { color: #9cd0ff; }
#live-status { font-family: ui-monospace, monospace; min-width: 14em; }
body[data-live-mode="paused"] #live-status { color: #ffd166; font-weight: bold; }
`;

/** The page for `session` (or, before any run started, the chart alone, waiting for the first session). */
export function livePageHtml(session: LiveSession | undefined): string {
  const lines = session?.lines ?? [];
  const view = lines.length > 0 ? parseSessionLog(session!.logText(), `${session!.id}.jsonl`) : null;
  return renderViewerHtml(viewerData(view), {
    script: LIVE_CLIENT_JS,
    dataId: 'turnloop-live',
    data: { session: view ? session!.id : null, skipLines: view ? lines.length : 0 },
    css: LIVE_CSS,
    connectSelf: true,
  });
}

/** Sent as a header as well: what a `<meta>` policy cannot say. */
export const LIVE_PAGE_HEADER_CSP = "frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
