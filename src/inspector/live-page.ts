/** The inspector's page (placeholder until the viewer's live mode is wired in). */
export const LIVE_PAGE_CSP = "default-src 'none'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
export function livePageHtml(): string {
  return '<!doctype html><title>turnloop inspector</title><p>loading</p>';
}
