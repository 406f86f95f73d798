/**
 * The `turnloop` commands of the README's and `docs/*.md`'s `sh` blocks, as a user copies them: every line (a `\`
 * continues it) whose commands start with `turnloop` or `npx turnloop` (other commands of a `&&` chain, such as an
 * `npm install`, are the set-up the test does itself). A line whose comment starts `# exit N:` must end with exit
 * code N (0 otherwise). The files a command names as the user's own (`session.jsonl`, `run.jsonl`, `key.pem`,
 * `scenario.json`) are given to it by the test. A block that cannot run from a plain install says why on the line
 * above its fence:
 *
 *   <!-- commands: skip, needs a browser to watch the inspector -->
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface DocCommand {
  file: string;
  /** 1-based line of the command in the file. */
  line: number;
  /** The command as a shell runs it. */
  command: string;
  exitCode: number;
  /** The block it belongs to (commands of one block run in order, in one directory). */
  block: number;
  skip?: string;
}

const SKIP_MARKER = /^<!--\s*commands:\s*skip,\s*(.+?)\s*-->$/;

export function commandsIn(file: string, markdown: string): DocCommand[] {
  const lines = markdown.split('\n');
  const commands: DocCommand[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    if (!/^```(sh|bash|shell)\s*$/.test(lines[i])) continue;
    const end = lines.indexOf('```', i + 1);
    const skip = SKIP_MARKER.exec(lines[i - 1] ?? '')?.[1];
    for (let j = i + 1; j < end; j += 1) {
      const start = j;
      let text = lines[j];
      while (text.endsWith('\\') && j + 1 < end) text = `${text.slice(0, -1)} ${lines[++j].trim()}`;
      const comment = /\s#\s(.*)$/.exec(text);
      const code = text.replace(/\s#\s.*$/, '').trim();
      const parts = code.split('&&').map((part) => part.trim()).filter((part) => /^(npx )?turnloop\s/.test(part));
      if (parts.length === 0) continue;
      const exitCode = Number(/^exit (\d+):/.exec(comment?.[1] ?? '')?.[1] ?? 0);
      commands.push({ file, line: start + 1, command: parts.join(' && '), exitCode, block: i + 1, ...(skip === undefined ? {} : { skip }) });
    }
    i = end;
  }
  return commands;
}

/** The commands of the README and of every `docs/*.md` of the repository at `root`. */
export function docCommands(root: string): DocCommand[] {
  const docs = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`);
  return ['README.md', ...docs].flatMap((file) => commandsIn(file, readFileSync(join(root, file), 'utf8')));
}
