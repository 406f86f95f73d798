/**
 * Names on the wire that both the model adapter (which sends them) and the loopback fake API (which reads them)
 * must agree on.
 */

/** Tells the fake API which scripted queue answers a request: the main loop's or the forked compactor's. */
export const QUERY_SOURCE_HEADER = 'x-turnloop-query-source';
