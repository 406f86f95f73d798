/**
 * The package as a user gets it (`npm run test:package`, run by .ci/run): `npm pack`, then `npm install --offline`
 * of the tarball into an empty project (dependencies from the cache `npm ci` filled), then the installed bin, every
 * subpath export from `import` and from `require()`, and a consumer file type-checked under `strict` + `nodenext`
 * with this repo's TypeScript. Nothing here loads the repo's sources: everything goes through the installed copy.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLEAN_ENV, installPackedPackage, REPO, repoPkg, type Tarball } from './consumer-project.ts';
import { docExamples, exampleFileName } from './doc-examples.ts';

const SUBPATHS = Object.keys(repoPkg.exports).filter((subpath) => subpath !== './package.json');
const specifier = (subpath: string) => (subpath === '.' ? repoPkg.name : `${repoPkg.name}/${subpath.slice(2)}`);
const TSC = join(REPO, 'node_modules/typescript/bin/tsc');
const FIXTURE = join(REPO, 'test/fixtures/claude-code-transcripts/short.jsonl');

let work: string;
let project: string;
let tarball: Tarball;
let installLog: string;

function sh(command: string, args: string[], cwd: string, timeout = 240_000) {
  const result = spawnSync(command, args, { cwd, env: CLEAN_ENV, encoding: 'utf8', timeout });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `turnloop <args>` through the installed bin (node_modules/.bin), from the consumer project. */
const turnloop = (...args: string[]) => sh(join(project, 'node_modules/.bin/turnloop'), args, project);

function ok(result: ReturnType<typeof sh>): string {
  expect(result.code, `${result.stderr}\n${result.stdout}`).toBe(0);
  return result.stdout;
}

beforeAll(() => {
  // The optional peers too (what a user of turnloop/mcp and turnloop/otel installs), for the imports and types.
  ({ work, project, tarball, installLog } = installPackedPackage(['@types/node', ...Object.keys(repoPkg.peerDependencies ?? {})]));
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the tarball', () => {
  it('holds the built code, its types, the CLI and its assets, and no sources or tests', () => {
    const files = tarball.files.map((f) => f.path);
    for (const needed of ['examples/transcripts/short.jsonl', 'examples/transcripts/LICENSE', 'package.json', 'README.md', 'LICENSE', 'bin/turnloop.mjs', 'dist/index.js', 'dist/index.d.ts', 'dist/cli/main.js', 'dist/viz/viewer/viewer.bundle.js', 'dist/viz/viewer/viewer.css', 'examples/scenarios/completed.json', 'examples/demo-project/src/auth/validate.ts']) {
      expect(files, needed).toContain(needed);
    }
    for (const subpath of SUBPATHS) expect(files).toContain(repoPkg.exports[subpath].slice(2).replace(/\.js$/, '.d.ts'));
    expect(files.filter((f) => /^(src|test|scripts|bench)\//.test(f) || f.endsWith('.map'))).toEqual([]);
    console.log(`tarball ${tarball.filename}: ${tarball.files.length} files, ${(tarball.size / 1024).toFixed(0)} kB packed, ${(tarball.unpackedSize / 1024).toFixed(0)} kB unpacked`);
  });

  it('installs only the runtime dependencies (no tsx, esbuild, typescript, vitest)', () => {
    const installed = JSON.parse(readFileSync(join(project, 'node_modules/turnloop/package.json'), 'utf8')) as typeof repoPkg;
    expect(Object.keys(installed.dependencies).sort()).toEqual(Object.keys(repoPkg.dependencies).sort());
    for (const devOnly of ['tsx', 'esbuild', 'vitest', 'vite', 'immer', 'mermaid', 'playwright-core']) {
      expect(existsSync(join(project, 'node_modules', devOnly)), devOnly).toBe(false);
    }
    const du = execFileSync('du', ['-sk', join(project, 'node_modules')], { encoding: 'utf8' });
    console.log(`install footprint (node_modules, with @types/node): ${(Number(du.split('\t')[0]) / 1024).toFixed(1)} MB`);
  });

  it('runs no install script of its own (no prepare: the build runs at pack time), and npm warns about none', () => {
    const installed = JSON.parse(readFileSync(join(project, 'node_modules/turnloop/package.json'), 'utf8')) as { scripts?: Record<string, string> };
    const lifecycle = Object.keys(installed.scripts ?? {}).filter((name) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(name));
    expect(lifecycle).toEqual([]);
    expect(installLog).not.toMatch(/install-scripts|install scripts/);
  });
});

describe('the installed CLI', () => {
  it('--version prints the package version', () => {
    expect(ok(turnloop('--version')).trim()).toBe(repoPkg.version);
  });

  it('--help lists the commands; help <command> shows one', () => {
    const overview = ok(turnloop('--help'));
    for (const command of ['demo', 'simulate', 'run', 'replay', 'resume', 'viz', 'export', 'import-claude', 'check-claude']) {
      expect(overview).toMatch(new RegExp(`^  ${command}\\s+\\S`, 'm'));
    }
    expect(ok(turnloop('help', 'replay'))).toMatch(/^Usage: turnloop replay/);
  });

  it('a mistyped command or flag is bad input (exit 2) with a suggestion', () => {
    const command = turnloop('simulte');
    expect(command.code).toBe(2);
    expect(command.stderr).toContain("Did you mean 'simulate'?");
    const flag = turnloop('simulate', 'x.json', '--jsno');
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("Did you mean '--json'?");
  });

  it('demo fixes the sample bug and leaves a replayable session log', () => {
    const out = JSON.parse(ok(turnloop('demo', '--json'))) as { terminal: { reason: string }; sessionLog: string; diff: string };
    expect(out.terminal.reason).toBe('completed');
    expect(out.diff).toContain('validate.ts');
    expect(ok(turnloop('replay', out.sessionLog))).toContain('terminal: completed');
  });

  it('simulate of an example records a log that replay, time travel and viz read', () => {
    const scenario = join(project, 'node_modules/turnloop/examples/scenarios/completed.json');
    const log = join(work, 'completed.jsonl');
    const simulated = JSON.parse(ok(turnloop('simulate', scenario, '--json', '--record', log))) as { terminal: { reason: string }; modelCalls: number };
    expect(simulated.terminal.reason).toBe('completed');
    expect(simulated.modelCalls).toBeGreaterThan(0);
    expect(ok(turnloop('replay', log))).toContain('terminal: completed');
    expect(ok(turnloop('replay', log, '--at', '3'))).toMatch(/^event 3 of \d+/);
    const html = join(work, 'view.html');
    ok(turnloop('viz', log, '--out', html));
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('<svg');
    expect(page).toContain(readFileSync(join(project, 'node_modules/turnloop/dist/viz/viewer/viewer.css'), 'utf8').slice(0, 200));
  });

  it('export writes the statechart in all four formats, each well-formed for its consumer', () => {
    const json = JSON.parse(ok(turnloop('export', '--format', 'json'))) as { id?: string; states?: unknown };
    expect(json.states).toBeTypeOf('object');
    expect(ok(turnloop('export', '--format', 'mermaid'))).toMatch(/^stateDiagram-v2/m);
    const scxml = ok(turnloop('export', '--format', 'scxml'));
    expect(scxml).toMatch(/<scxml[\s\S]*<\/scxml>\s*$/);
    const dot = ok(turnloop('export', '--format', 'dot'));
    expect(dot).toMatch(/^digraph[\s\S]*\}\s*$/);
  });

  it('bounds and explore work from the install: a bound with its rules, a witness that simulate reaches, a complete exploration', () => {
    const config = JSON.stringify({ features: { autoCompact: false, contextCollapse: true, maxOutputTokensCap: true }, limits: { maxStopHookBlocking: 1, maxOutputTokensRecovery: 1, autocompactMaxFailures: 2, maxModelCalls: 3 } });
    const params = JSON.stringify({ maxTurns: 2 });
    const witness = join(project, 'witness.json');
    const bounds = JSON.parse(ok(turnloop('bounds', '--json', '--config', config, '--params', params, '--witness', witness))) as { mainModelCalls: number; because: string[] };
    expect(bounds.mainModelCalls).toBeGreaterThan(0);
    expect(bounds.because.length).toBeGreaterThan(0);
    // The witness is a scenario whose simulation reaches the main loop's model-call bound exactly.
    const simulated = JSON.parse(ok(turnloop('simulate', witness, '--json'))) as { modelCalls: number };
    expect(simulated.modelCalls).toBe(bounds.mainModelCalls);
    const explored = JSON.parse(ok(turnloop('explore', '--json', '--config', config, '--params', params))) as { complete: boolean; states: number; violations: unknown[]; terminalsReached: string[] };
    expect(explored.complete).toBe(true);
    expect(explored.states).toBeGreaterThan(100);
    expect(explored.violations).toEqual([]);
    expect(explored.terminalsReached).toContain('completed');
  });

  it('check-claude re-drives a real Claude Code transcript', () => {
    expect(ok(turnloop('check-claude', FIXTURE))).toMatch(/^all \d+ runs reproduce$/m);
  });

  it("the README's walkthrough works from the installed project: every example it names ships and is found by name", () => {
    const listed = JSON.parse(ok(turnloop('examples', '--json'))) as { scenarios: Record<string, string>; transcripts: Record<string, string> };
    expect(listed.scenarios.completed).toBe(join(project, 'node_modules/turnloop/examples/scenarios/completed.json'));
    expect(existsSync(listed.transcripts.short!)).toBe(true);
    const log = join(work, 'readme.jsonl');
    ok(turnloop('simulate', '--example', 'completed', '--record', log));
    expect(ok(turnloop('replay', log, '--at', '12'))).toMatch(/^event 12 of \d+/);
    expect(ok(turnloop('check-claude', '--example', 'short'))).toMatch(/^all \d+ runs reproduce$/m);
    const refused = turnloop('check-claude', log);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('not a Claude Code transcript: found a turnloop session log');
  });

  it('run without a key is bad input that points to the demo, at once', () => {
    const result = turnloop('run', 'fix the bug');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('ANTHROPIC_API_KEY');
  });
});

describe('the installed library', () => {
  it('every subpath export loads with import()', () => {
    const script = `for (const s of ${JSON.stringify(SUBPATHS.map(specifier))}) { const m = await import(s); if (Object.keys(m).length === 0) throw new Error(s + ' exports nothing'); console.log(s, Object.keys(m).length); }`;
    const out = ok(sh(process.execPath, ['--input-type=module', '-e', script], project));
    expect(out.trim().split('\n')).toHaveLength(SUBPATHS.length);
  });

  it('every subpath export loads with require() (Node >= 20.19), the same names as import()', () => {
    const script = `const specs = ${JSON.stringify(SUBPATHS.map(specifier))};
      Promise.all(specs.map(async (s) => [s, Object.keys(require(s)).sort().join(','), Object.keys(await import(s)).sort().join(',')]))
        .then((rows) => { for (const [s, r, i] of rows) { if (r !== i || r === '') throw new Error(s + ': require and import differ'); } console.log(rows.length); });`;
    const result = sh(process.execPath, ['-e', script], project);
    expect(ok(result).trim()).toBe(String(SUBPATHS.length));
    expect(result.stderr).toBe('');
  });

  it('importing the root loads neither the Anthropic SDK nor the fake API, the viewer or the file tools', () => {
    const hook = `data:text/javascript,${encodeURIComponent("export async function resolve(s, c, next) { const r = await next(s, c); if (r.url.startsWith('file:')) process.stdout.write(r.url + '\\n'); return r; }")}`;
    const script = `import { register } from 'node:module'; register(${JSON.stringify(hook)}); await import('turnloop');`;
    const loaded = ok(sh(process.execPath, ['--input-type=module', '-e', script], project)).split('\n').filter(Boolean);
    expect(loaded.some((url) => url.endsWith('/turnloop/dist/index.js'))).toBe(true);
    expect(loaded.filter((url) => /@anthropic-ai|\/dist\/(fake-api|viz|tools|scenario|claude|cli|testing)\//.test(url))).toEqual([]);
  });

  it('query() without a key ends at once on an API error naming ANTHROPIC_API_KEY (no request, no retries)', () => {
    const script = `import { runQuery } from 'turnloop';
      const { items, terminal } = await runQuery({ prompt: 'hi', maxTurns: 3 });
      console.log(JSON.stringify({ terminal, requests: items.filter((i) => i.type === 'request_start').length }));`;
    const out = JSON.parse(ok(sh(process.execPath, ['--input-type=module', '-e', script], project))) as { terminal: { reason: string; apiError?: { text: string } }; requests: number };
    expect(out.terminal.reason).toBe('completed');
    expect(out.terminal.apiError?.text).toContain('ANTHROPIC_API_KEY');
  });

  it('an embedder tests a tool loop with turnloop/testing: builders, scripted model, no ids written by hand', () => {
    const script = `import { runQuery, defineTool } from 'turnloop';
      import { messageBuilders, scriptedModelCaller } from 'turnloop/testing';
      import { z } from 'zod';
      const m = messageBuilders();
      const echo = defineTool({ name: 'echo', description: 'echo', inputSchema: z.object({ text: z.string() }), call: async ({ text }) => ({ content: text }) });
      const callModel = scriptedModelCaller([m.reply.toolUse('echo', { text: 'hi' }), m.reply.text('Said hi.')]);
      const { items, terminal } = await runQuery({ messages: [m.user('say hi')], tools: [echo], deps: { callModel } });
      const result = items.find((i) => i.type === 'user' && Array.isArray(i.message.content));
      console.log(JSON.stringify({ terminal, result: result.message.content[0] }));`;
    const out = JSON.parse(ok(sh(process.execPath, ['--input-type=module', '-e', script], project))) as { terminal: { reason: string }; result: { tool_use_id: string; content: unknown } };
    expect(out.terminal.reason).toBe('completed');
    expect(out.result.tool_use_id).toMatch(/^toolu_/);
    expect(JSON.stringify(out.result.content)).toContain('hi');
  });

  it('a consumer type-checks under strict + module nodenext against the installed declarations', () => {
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', noEmit: true, types: ['node'], skipLibCheck: false },
      include: ['consumer.ts', 'consumer.cts'],
    }));
    writeFileSync(join(project, 'consumer.ts'), CONSUMER_TS);
    writeFileSync(join(project, 'consumer.cts'), `import turnloop = require('turnloop');\nconst state: turnloop.LoopState | undefined = undefined;\nexport const configured: turnloop.LoopConfig = turnloop.resolveConfig({});\nvoid state;\n`);
    const result = sh(process.execPath, [TSC, '-p', project], project);
    expect(result.code, result.stdout + result.stderr).toBe(0);
  });
});

describe('every TypeScript/JavaScript example of the README and docs/', () => {
  const examples = docExamples(REPO);
  const runnable = examples.filter((example) => example.skip === undefined);
  let outDir = '';

  beforeAll(() => {
    // Compiled together, as a user's project would be: strict, module nodenext, each block its own ES module.
    const dir = join(project, 'doc-examples');
    mkdirSync(dir, { recursive: true });
    for (const example of runnable) writeFileSync(join(dir, exampleFileName(example)), `${example.code}\n`);
    outDir = join(project, 'doc-examples-out');
    writeFileSync(join(project, 'tsconfig.examples.json'), JSON.stringify({
      compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: ['node'], skipLibCheck: true, allowJs: true, rootDir: 'doc-examples', outDir },
      include: ['doc-examples/*'],
    }));
  });

  it('are found, and every skipped one says why', () => {
    expect(runnable.length).toBeGreaterThanOrEqual(5);
    for (const example of examples) if (example.skip !== undefined) expect(example.skip.length, `${example.file}:${example.line}`).toBeGreaterThan(10);
    console.log(`doc examples: ${runnable.length} run, ${examples.length - runnable.length} skipped: ${examples.filter((e) => e.skip).map((e) => `${e.file}:${e.line} (${e.skip})`).join('; ')}`);
  });

  it('compile under strict + nodenext against the installed package', () => {
    const result = sh(process.execPath, [TSC, '-p', join(project, 'tsconfig.examples.json')], project);
    expect(result.code, result.stdout + result.stderr).toBe(0);
  });

  for (const example of docExamples(REPO).filter((e) => e.skip === undefined)) {
    it(`${example.file}:${example.line} runs to exit 0 (no key, no network)`, () => {
      const compiled = join(outDir, exampleFileName(example).replace(/\.mts$/, '.mjs'));
      expect(existsSync(compiled), 'compiled by the test above').toBe(true);
      // Each runs in its own empty directory: some record a session log there.
      const cwd = mkdtempSync(join(work, 'example-'));
      // A minute at most: an example that leaves a server or a timer holding the process is a broken example.
      const result = sh(process.execPath, [compiled], cwd, 60_000);
      expect(result.code, `${result.stderr}\n${result.stdout}`).toBe(0);
      expect(result.stderr).toBe('');
    });
  }

  it('the deterministic-core driver of the README reaches a terminal', () => {
    const driver = runnable.find((e) => e.file === 'README.md' && e.code.includes('initialState('));
    expect(driver).toBeDefined();
    const out = sh(process.execPath, [join(outDir, exampleFileName(driver!).replace(/\.mts$/, '.mjs'))], mkdtempSync(join(work, 'example-')));
    expect(out.stdout).toMatch(/^terminal: completed$/m);
  });
});

/** Uses every entry point as an embedder would; the @ts-expect-error lines prove the types are not `any`. */
const CONSUMER_TS = `
import { query, resolveConfig, initialState, step, defineTool, type Terminal, type QueryItem } from 'turnloop';
import { replay, parseSessionLogText, createSessionRecorder, stateAt } from 'turnloop/replay';
import { exportMermaid, exportScxml, renderViewerHtml, viewerData } from 'turnloop/viz';
import { startFakeAnthropicApi, messageBuilders, scriptedModelCaller, virtualClock } from 'turnloop/testing';
import { createFileTools } from 'turnloop/tools';
import { loadScenario, simulateScenario } from 'turnloop/scenario';
import { checkTranscript } from 'turnloop/claude';
import { z } from 'zod';

const config = resolveConfig({ limits: { maxModelCalls: 5 } });
const { state } = initialState({ messages: [] }, config);
step(state, { type: 'tools_finished' }, config);
// @ts-expect-error: not an event of the catalogue
step(state, { type: 'no_such_event' }, config);
const tool = defineTool({ name: 't', description: 'd', inputSchema: z.object({ n: z.number() }), call: async ({ n }) => ({ content: String(n + 1) }) });
const m = messageBuilders();
const run: AsyncGenerator<QueryItem, Terminal, undefined> = query({ messages: [m.user('hi')], tools: [tool, ...createFileTools({ root: '.' })], deps: { callModel: scriptedModelCaller([m.reply.text('ok')]), clock: virtualClock() } });
// @ts-expect-error: the terminal reason is a closed union
const reason: Terminal['reason'] = 'not_a_reason';
export const used = [run, reason, replay, parseSessionLogText, createSessionRecorder, stateAt, exportMermaid, exportScxml, renderViewerHtml, viewerData, startFakeAnthropicApi, loadScenario, simulateScenario, checkTranscript];
`;
