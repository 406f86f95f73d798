/**
 * `turnloop export --format json|mermaid|scxml|dot [--out FILE]`: the loop statechart in a standard format,
 * from the one chart walker (`src/viz/graph.ts`).
 */
import { resolve } from 'node:path';
import { exportDot } from '../../viz/export-dot.ts';
import { exportJson } from '../../viz/export-json.ts';
import { exportMermaid } from '../../viz/export-mermaid.ts';
import { exportScxml } from '../../viz/export-scxml.ts';
import { EXIT_OK, UsageError, type CliCommand, type CliIo } from '../cli-io.ts';
import { didYouMean } from '../../errors/did-you-mean.ts';
import { writeOutputFile } from '../write-output.ts';

export const EXPORT_FORMATS = {
  json: () => exportJson(),
  mermaid: () => exportMermaid(),
  scxml: () => exportScxml(),
  dot: () => exportDot(),
} as const;

export type ExportFormat = keyof typeof EXPORT_FORMATS;

const HELP = `Usage: turnloop export --format json|mermaid|scxml|dot [--out FILE]

Writes the loop statechart (docs/loop.md §4-5) to stdout, or to FILE with --out.

Formats (docs/statechart.md says which tool reads which):
  json     the xstate machine config: createMachine(json) loads it; supply guards and actions by name
  mermaid  Mermaid stateDiagram-v2 of the top level (the compound states' diagrams are in docs/statechart.md)
  scxml    W3C SCXML with the ECMAScript datamodel (runs in SCION); the 11 terminals are top-level <final>s
  dot      Graphviz DOT (dot -Tsvg chart.dot > chart.svg)
`;

interface ExportArgs {
  format: ExportFormat;
  out: string | null;
}

export function parseExportArgs(args: string[]): ExportArgs {
  let format: string | null = null;
  let out: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? args[++i];
      if (v === undefined || v === '') throw new UsageError(`${flag} needs a value`);
      return v;
    };
    if (flag === '--format' || flag === '-f') format = value();
    else if (flag === '--out' || flag === '-o') out = value();
    else throw new UsageError(`unknown argument '${arg}'.${didYouMean(flag.replace(/^-+/, ''), ['format', 'out'], (n) => `--${n}`)} (see turnloop export --help)`);
  }
  if (format === null) throw new UsageError(`--format is required: one of ${Object.keys(EXPORT_FORMATS).join(', ')}`);
  // Own keys only: `in` would also accept what every object inherits (`toString`, `constructor`, `__proto__`).
  if (!Object.hasOwn(EXPORT_FORMATS, format)) throw new UsageError(`unknown format '${format}': one of ${Object.keys(EXPORT_FORMATS).join(', ')}.${didYouMean(format, Object.keys(EXPORT_FORMATS))}`);
  return { format: format as ExportFormat, out };
}

export const exportCommand: CliCommand = {
  name: 'export',
  help: HELP,
  rawStdout: true,
  async run(args: string[], io: CliIo): Promise<number> {
    const { format, out } = parseExportArgs(args);
    const text = EXPORT_FORMATS[format]();
    if (out === null) {
      io.stdout.write(text);
    } else {
      const path = writeOutputFile(out, io.cwd, text);
      io.stderr.write(`wrote ${format} to ${path}\n`);
    }
    return EXIT_OK;
  },
};
