/**
 * The live inspector: a local HTTP server that shows every inspected run of this process in the viewer page as it
 * runs, and lets the page (or code, through the same methods) pause, step, resume and abort it.
 *
 * Invariants:
 * - It binds 127.0.0.1 unless another host is asked for explicitly, and answers only requests that carry its
 *   token, name it in `Host` and, from a browser, come from its own origin (`request-guard.ts`). No CORS.
 * - Each step reaches the page as the session log line the recorder writes (redacted as in logs), over
 *   Server-Sent Events; a page that opens late is sent the lines so far first, then follows.
 * - It closes when the last inspected run ends, unless `keep` is set; its sockets never hold the process open
 *   after `close()`, and a page's stream is ended (everything sent so far delivered) before its socket is closed.
 * - `whenPageOpened()` resolves once a page has opened its stream, and so has been sent every line so far: a
 *   command whose run ended before anyone looked can serve until then, so the URL it printed is not a dead link.
 *
 * @example
 * const inspector = await startInspector();
 * console.log(inspector.url);
 * await runQuery({ prompt: 'hi', observers: [inspector.attach('main')] });
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunObserverFactory } from '../runtime/query-options.ts';
import type { RedactOptions } from '../replay/redact.ts';
import { resolveConfig } from '../config/config.ts';
import { buildChart } from '../viz/graph.ts';
import type { Breakpoint } from './breakpoints.ts';
import { parseControlRequest } from './control-request.ts';
import { LiveSession, type LiveSessionEvent } from './live-session.ts';
import { livePageHtml, LIVE_PAGE_HEADER_CSP } from './live-page.ts';
import { allowedHosts, newToken, refusal } from './request-guard.ts';

export interface InspectorOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Address to bind; `127.0.0.1` unless given. Anything else exposes the inspector beyond this machine. */
  host?: string;
  /** Keep serving after the last run ended, so the finished runs can be browsed (until `close()`). */
  keep?: boolean;
  /** Hold every run before its first step's effects. */
  startPaused?: boolean;
  /** Breakpoints every attached run starts with. */
  breakpoints?: Breakpoint[];
  /** Extra redaction patterns (secrets are always redacted as in session logs). */
  redact?: RedactOptions;
}

const MAX_CONTROL_BODY = 64 * 1024;
/** The config a continued run's breakpoints are traced with before its own is known (the chart is the same). */
const DEFAULT_CHART_CONFIG = resolveConfig({});

export class Inspector {
  readonly sessions: LiveSession[] = [];
  private readonly streams = new Set<ServerResponse>();
  private readonly chart = buildChart();
  private closed = false;
  private running = 0;
  private pagesOpened = 0;
  private readonly openedWaiters: Array<() => void> = [];

  private constructor(
    private readonly server: Server,
    readonly host: string,
    readonly port: number,
    readonly token: string,
    private readonly options: InspectorOptions,
  ) {}

  /** Starts the server; resolves once it listens. */
  static async start(options: InspectorOptions = {}): Promise<Inspector> {
    const host = options.host ?? '127.0.0.1';
    const token = newToken();
    let inspector: Inspector | null = null;
    const server = createServer((request, response) => inspector?.handle(request, response));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => resolve());
    });
    const port = (server.address() as AddressInfo).port;
    inspector = new Inspector(server, host, port, token, options);
    return inspector;
  }

  /** The one URL to open: it carries the token. */
  get url(): string {
    const shown = this.host.includes(':') ? `[${this.host}]` : this.host;
    return `http://${shown}:${this.port}/?token=${this.token}`;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** How many pages have opened their stream (each was sent every line so far). */
  get pagesSeen(): number {
    return this.pagesOpened;
  }

  /** Resolves once a page has opened its stream (at once if one already has), or when the inspector closes. */
  whenPageOpened(): Promise<void> {
    if (this.pagesOpened > 0 || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.openedWaiters.push(resolve));
  }

  /** An observer for `query({ observers })`: each run it is given to shows as its own session. */
  attach(name = 'run'): RunObserverFactory {
    return (run) => {
      const id = `s${this.sessions.length + 1}`;
      const session = new LiveSession(id, name, this.chart, run.config, this.options, (event) => this.broadcast(event));
      this.sessions.push(session);
      this.running += 1;
      this.broadcastSessions();
      return session.observe(run, this.options.redact, () => this.runEnded());
    };
  }

  /**
   * A session for a run that continues a log (`resumeFromLog`): shows `priorLines` first; the run's new lines come
   * through `sink` (pass it as `alsoRecordTo`) and `observer` adds pause, step and abort.
   */
  attachContinuation(name: string, priorLines: string[]): { sink: { write(text: string): void }; observer: RunObserverFactory } {
    const session = new LiveSession(`s${this.sessions.length + 1}`, name, this.chart, DEFAULT_CHART_CONFIG, this.options, (event) => this.broadcast(event));
    session.seed(priorLines);
    this.sessions.push(session);
    this.broadcastSessions();
    return {
      sink: session.sink,
      observer: (run) => {
        this.running += 1;
        return session.controlOnly(run, () => this.runEnded());
      },
    };
  }

  /** The session with `id`, or the last one attached. */
  session(id?: string): LiveSession | undefined {
    return id === undefined ? this.sessions.at(-1) : this.sessions.find((s) => s.id === id);
  }

  pause(id?: string): void {
    this.session(id)?.control.pause();
  }

  step(id?: string): void {
    this.session(id)?.control.step();
  }

  resume(id?: string): void {
    this.session(id)?.control.resume();
  }

  abort(id?: string): void {
    this.session(id)?.abort();
  }

  setBreakpoints(breakpoints: Breakpoint[], id?: string): void {
    this.session(id)?.control.setBreakpoints(breakpoints);
  }

  private runEnded(): void {
    this.running -= 1;
    if (this.running === 0 && !this.options.keep) void this.close();
  }

  /** Stops the server and ends every stream. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const wake of this.openedWaiters.splice(0)) wake();
    // End each page's stream and let what was written reach it before the sockets are closed (at most a second).
    const flushed = [...this.streams].map((stream) => new Promise<void>((resolve) => (stream.writableFinished ? resolve() : stream.end(resolve))));
    this.streams.clear();
    await Promise.race([Promise.all(flushed), new Promise<void>((resolve) => setTimeout(resolve, 1000).unref())]);
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://inspector.invalid');
    const refused = refusal(request, url, this.token, allowedHosts(this.host, this.port));
    if (refused) return void send(response, 403, 'text/plain', `403 ${refused}\n`);
    const route = `${request.method} ${url.pathname}`;
    if (route === 'GET /') {
      const wanted = url.searchParams.get('session');
      const session = wanted === null ? this.sessions[0] : this.session(wanted);
      return void send(response, 200, 'text/html; charset=utf-8', livePageHtml(session), { 'content-security-policy': LIVE_PAGE_HEADER_CSP });
    }
    if (route === 'GET /api/stream') return this.openStream(response);
    if (route === 'GET /api/sessions') return void send(response, 200, 'application/json', JSON.stringify(this.sessions.map((s) => s.summary())));
    const log = /^GET \/api\/sessions\/([\w-]+)\/log$/.exec(route);
    if (log) {
      const session = this.session(log[1]);
      if (!session) return void send(response, 404, 'text/plain', `no session ${log[1]}\n`);
      return void send(response, 200, 'application/x-ndjson', session.logText(), { 'content-disposition': `attachment; filename="turnloop-${session.id}.jsonl"` });
    }
    const control = /^POST \/api\/sessions\/([\w-]+)\/control$/.exec(route);
    if (control) return this.control(request, response, control[1]!);
    send(response, 404, 'text/plain', `no such page: ${route}\n`);
  }

  private openStream(response: ServerResponse): void {
    response.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    this.streams.add(response);
    response.on('close', () => this.streams.delete(response));
    writeEvent(response, 'sessions', this.sessions.map((s) => s.summary()));
    for (const session of this.sessions) {
      for (const line of session.lines) writeEvent(response, 'line', { session: session.id, line });
      writeEvent(response, 'status', { session: session.id, status: session.control.status() });
    }
    this.pagesOpened += 1;
    for (const wake of this.openedWaiters.splice(0)) wake();
  }

  private control(request: IncomingMessage, response: ServerResponse, id: string): void {
    const session = this.session(id);
    if (!session) return void send(response, 404, 'text/plain', `no session ${id}\n`);
    if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
      return void send(response, 415, 'text/plain', 'expected a JSON body (content-type: application/json)\n');
    }
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_CONTROL_BODY) request.destroy();
      else chunks.push(chunk);
    });
    request.on('end', () => {
      const parsed = parseControlRequest(Buffer.concat(chunks).toString('utf8'));
      if (!parsed.ok) return void send(response, 400, 'text/plain', `${parsed.error}\n`);
      const command = parsed.request;
      if (command.action === 'breakpoints') session.control.setBreakpoints(command.breakpoints);
      else if (command.action === 'abort') session.abort('interrupt');
      else session.control[command.action]();
      send(response, 200, 'application/json', JSON.stringify(session.control.status()));
    });
  }

  private broadcast(event: LiveSessionEvent): void {
    const data = event.kind === 'line' ? { session: event.session, line: event.line } : { session: event.session, status: event.status };
    for (const stream of this.streams) writeEvent(stream, event.kind, data);
  }

  private broadcastSessions(): void {
    const summaries = this.sessions.map((s) => s.summary());
    for (const stream of this.streams) writeEvent(stream, 'sessions', summaries);
  }
}

/** Starts an inspector (see `Inspector`). */
export function startInspector(options: InspectorOptions = {}): Promise<Inspector> {
  return Inspector.start(options);
}

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
};

function send(response: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, 'cache-control': 'no-store', ...headers });
  response.end(body);
}

function writeEvent(response: ServerResponse, event: string, data: unknown): void {
  response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

let shared: Promise<Inspector> | null = null;

/**
 * The process's inspector for `query({ inspect })`: started on first use (printing its URL once through `onUrl`),
 * shared by every run after, so one page lists them all. A closed one is replaced on the next call.
 */
export async function sharedInspector(options: InspectorOptions & { onUrl?: (url: string) => void } = {}): Promise<Inspector> {
  const current = shared ? await shared : null;
  if (current && !current.isClosed) return current;
  shared = startInspector(options).then((inspector) => {
    (options.onUrl ?? ((url) => process.stderr.write(`turnloop inspector: ${url}\n`)))(inspector.url);
    return inspector;
  });
  return shared;
}
