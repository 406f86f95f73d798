/**
 * The public API report: one `api/<entry>.api.md` per entry point of package.json's `exports`, written by
 * api-extractor from dist's type declarations (run `npm run build` first).
 *
 *   npm run api:report   rewrites the reports (commit them with the change that moved the API)
 *   npm run check:api    fails, naming the entry points, when the API differs from the reports checked in
 *
 * `test/unit/api-report.test.ts` runs the check inside `npm test` (after its build).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CompilerState, Extractor, ExtractorConfig, ExtractorLogLevel } from '@microsoft/api-extractor';

const ROOT = resolve(import.meta.dirname, '..');
export const API_FOLDER = join(ROOT, 'api');

/** `.` → `turnloop`, `./replay` → `turnloop-replay`, with the `.d.ts` beside each entry's `.js`. */
export function apiEntryPoints(): { name: string; subpath: string; declarations: string }[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, string> };
  return Object.entries(pkg.exports)
    .filter(([subpath, target]) => subpath !== './package.json' && target.endsWith('.js'))
    .map(([subpath, target]) => ({
      name: subpath === '.' ? 'turnloop' : `turnloop-${subpath.slice(2).replace(/\//g, '-')}`,
      subpath,
      declarations: join(ROOT, target.replace(/\.js$/, '.d.ts')),
    }));
}

/**
 * Runs api-extractor on every entry point against the reports in `reportFolder`: `changed` names the entry points
 * whose report differs (in update mode, rewritten), `fresh` holds each report as generated now, by report name.
 */
export function runApiReport(
  mode: 'check' | 'update',
  reportFolder = API_FOLDER,
): { changed: string[]; problems: string[]; fresh: Record<string, string> } {
  const tempFolder = mkdtempSync(join(tmpdir(), 'turnloop-api-'));
  const changed: string[] = [];
  const problems: string[] = [];
  const fresh: Record<string, string> = {};
  const entries = apiEntryPoints();
  if (mode === 'update') mkdirSync(reportFolder, { recursive: true });
  // One TypeScript program for all entry points (their declarations share most files).
  let compilerState: CompilerState | undefined;
  try {
    for (const entry of entries) {
      const config = ExtractorConfig.prepare({
        configObject: {
          projectFolder: ROOT,
          mainEntryPointFilePath: entry.declarations,
          compiler: {
            overrideTsconfig: {
              compilerOptions: {
                target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM'],
                types: ['node'], strict: true, skipLibCheck: true, esModuleInterop: true,
              },
              files: entries.map((e) => e.declarations),
            },
          },
          apiReport: { enabled: true, reportFolder, reportTempFolder: tempFolder, reportFileName: entry.name },
          docModel: { enabled: false },
          dtsRollup: { enabled: false },
          tsdocMetadata: { enabled: false },
          messages: {
            // The report is about what is exported, not about TSDoc release tags this project does not use.
            extractorMessageReporting: {
              'ae-missing-release-tag': { logLevel: ExtractorLogLevel.None },
              'ae-forgotten-export': { logLevel: ExtractorLogLevel.None },
              'ae-internal-missing-underscore': { logLevel: ExtractorLogLevel.None },
              'ae-unresolved-link': { logLevel: ExtractorLogLevel.None },
            },
            tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
            compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning } },
          },
        },
        configObjectFullPath: undefined,
        packageJsonFullPath: join(ROOT, 'package.json'),
      });
      compilerState ??= CompilerState.create(config, { additionalEntryPoints: entries.map((e) => e.declarations) });
      const result = Extractor.invoke(config, {
        compilerState,
        localBuild: mode === 'update',
        messageCallback: (message) => {
          if (message.logLevel === ExtractorLogLevel.Error || message.logLevel === ExtractorLogLevel.Warning) {
            if (!String(message.messageId).startsWith('console-api-report')) {
              problems.push(`${entry.subpath}: ${message.text}`);
            }
          }
          message.handled = true;
        },
      });
      if (result.apiReportChanged) changed.push(entry.subpath);
      fresh[entry.name] = readFileSync(join(tempFolder, `${entry.name}.api.md`), 'utf8');
    }
  } finally {
    rmSync(tempFolder, { recursive: true, force: true });
  }
  return { changed, problems, fresh };
}

if (process.argv[1] === import.meta.filename) {
  const mode = process.argv.includes('--check') ? 'check' : 'update';
  const { changed, problems } = runApiReport(mode);
  for (const problem of problems) console.error(problem);
  if (mode === 'check' && changed.length > 0) {
    console.error(`The public API changed (${changed.join(', ')}): run \`npm run build && npm run api:report\` and commit api/.`);
    process.exit(1);
  }
  if (problems.length > 0) process.exit(1);
  console.log(mode === 'check' ? 'api/ matches the public API' : `api/ written (${changed.length} report(s) changed)`);
}
