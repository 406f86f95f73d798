/**
 * The TypeScript and JavaScript blocks of the README and `docs/*.md`, as a user copies them. A block that cannot run
 * alone says so on the line just above its fence, with the reason:
 *
 *   <!-- example: skip, needs a Postgres server and @dbos-inc/dbos-sdk -->
 *
 * Every other block must compile (strict, module nodenext) and run to exit 0 in an empty project that installed
 * the packed tarball (test/package/installed-package.test.ts). What a block prints, when the doc shows it, is a
 * `text` block after it, marked on the line above its fence; the run must print exactly that:
 *
 *   <!-- example output -->
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface DocExample {
  /** `README.md` or `docs/<name>.md`. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  language: 'ts' | 'js';
  code: string;
  /** Why the block is not run, when it says so. */
  skip?: string;
  /** What it prints, when the doc shows it (a marked `text` block after it). */
  output?: string;
}

const FENCE = /^```(ts|typescript|js|javascript|mjs)\s*$/;
const SKIP_MARKER = /^<!--\s*example:\s*skip,\s*(.+?)\s*-->$/;
const OUTPUT_MARKER = /^<!--\s*example output\s*-->$/;

/** Every TS/JS block of one Markdown text. */
export function examplesIn(file: string, markdown: string): DocExample[] {
  const lines = markdown.split('\n');
  const examples: DocExample[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    if (OUTPUT_MARKER.test(lines[i] ?? '')) {
      const end = lines.indexOf('```', i + 2);
      const last = examples.at(-1);
      if (lines[i + 1] !== '```text' || end < 0 || !last) throw new Error(`${file}:${i + 1}: an example output marker must stand above a \`\`\`text block that follows an example`);
      last.output = lines.slice(i + 2, end).join('\n');
      i = end;
      continue;
    }
    const fence = FENCE.exec(lines[i]);
    if (!fence) continue;
    const end = lines.indexOf('```', i + 1);
    if (end < 0) throw new Error(`${file}:${i + 1}: a code block that never closes`);
    const skip = SKIP_MARKER.exec(lines[i - 1] ?? '')?.[1];
    examples.push({
      file,
      line: i + 1,
      language: fence[1].startsWith('t') ? 'ts' : 'js',
      code: lines.slice(i + 1, end).join('\n'),
      ...(skip === undefined ? {} : { skip }),
    });
    i = end;
  }
  return examples;
}

/** The examples of the README and of every `docs/*.md` of the repository at `root`. */
export function docExamples(root: string): DocExample[] {
  const docs = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`);
  return ['README.md', ...docs].flatMap((file) => examplesIn(file, readFileSync(join(root, file), 'utf8')));
}

/** A file name for an example: `readme-64.mts`, `docs-replay-104.mts`. */
export function exampleFileName(example: DocExample): string {
  const base = example.file.replace(/\.md$/, '').replace(/[^a-z0-9]+/gi, '-').toLowerCase();
  return `${base}-${example.line}.${example.language === 'ts' ? 'mts' : 'mjs'}`;
}
