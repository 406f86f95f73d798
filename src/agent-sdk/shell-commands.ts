/**
 * A Bash command as the permission rules see it (`permission-rules.ts`): parsed with tree-sitter's Bash grammar
 * (`@vscode/tree-sitter-wasm`: the tree-sitter runtime and the `tree-sitter-bash` grammar built to WebAssembly by
 * the VS Code team; maintained, offline, no install script), never split by hand, into every simple command
 * it would run and every redirection it makes, wherever they sit: lists (`&&`, `||`, `;`, newlines), pipelines,
 * subshells, command and process substitutions (`$(...)`, backticks, `<(...)`), function bodies, loops,
 * here-documents.
 *
 * Invariants:
 * - A word is known only when the shell would pass it through unchanged (plain, quoted or backslash-escaped text);
 *   a word with an expansion, a glob or a brace (`$X`, `$(...)`, `r*`, `{a,b}`) is `null`: its value is decided
 *   when it runs, so a rule cannot say what it is.
 * - A command the grammar cannot parse (an error or a missing token anywhere) is `null` as a whole: callers fail
 *   closed on it.
 */
import { createRequire } from 'node:module';
import type { Language, Node, Parser } from '@vscode/tree-sitter-wasm';

/** One simple command: its words (the program first; `null` where the value is not known before it runs). */
export interface SimpleCommand {
  words: Array<string | null>;
  /** Variable assignments before the program (`X=1 ls`), or a statement of assignments alone (no words). */
  assignments: number;
}

/** One redirection: its operator (`>`, `>>`, `<`, `&>`, `>&`, `<<`, `<<<` ...) and its target (`null`: not known). */
export interface Redirection {
  operator: string;
  target: string | null;
}

export interface ParsedShellCommand {
  commands: SimpleCommand[];
  redirections: Redirection[];
}

/** Longer commands are not parsed (and so never matched by a rule that allows). */
export const MAX_PARSED_COMMAND_CHARS = 65_536;

let loading: Promise<Parser> | null = null;

/** The parser, loaded once per process (the grammar is a 1.3 MB WebAssembly module). */
function bashParser(): Promise<Parser> {
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    const treeSitter = require('@vscode/tree-sitter-wasm') as typeof import('@vscode/tree-sitter-wasm');
    await treeSitter.Parser.init();
    const grammar: Language = await treeSitter.Language.load(require.resolve('@vscode/tree-sitter-wasm/wasm/tree-sitter-bash.wasm'));
    const parser = new treeSitter.Parser();
    parser.setLanguage(grammar);
    return parser;
  })();
  return loading;
}

const GLOB_OR_BRACE = /[*?[\]{}~]/;

/** The text of an unquoted word after the shell removes backslashes; null when it globs or brace-expands. */
function plainWord(raw: string): string | null {
  let text = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\\') {
      if (i + 1 < raw.length && raw[i + 1] !== '\n') text += raw[i + 1];
      i++;
    } else if (GLOB_OR_BRACE.test(c)) {
      return null;
    } else {
      text += c;
    }
  }
  return text;
}

/** The value of a word node when the shell would pass it through unchanged, else null. */
export function staticValue(node: Node): string | null {
  switch (node.type) {
    case 'command_name':
      return node.firstNamedChild ? staticValue(node.firstNamedChild) : null;
    case 'word':
      return plainWord(node.text);
    case 'number':
      return node.text;
    case 'raw_string':
      return node.text.slice(1, -1);
    case 'string': {
      let text = '';
      for (const child of node.namedChildren) {
        if (!child || child.type !== 'string_content') return null;
        text += child.text.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === '\n' ? '' : c));
      }
      return text;
    }
    case 'concatenation': {
      let text = '';
      for (const child of node.namedChildren) {
        const value = child ? staticValue(child) : null;
        if (value === null) return null;
        text += value;
      }
      return text;
    }
    default:
      return null;
  }
}

/** The operator token of a redirect node (its first unnamed child that is not a descriptor). */
function operatorOf(node: Node): string {
  for (const child of node.children) if (child && !child.isNamed) return child.type;
  return node.type === 'heredoc_redirect' ? '<<' : '?';
}

function collect(node: Node, into: ParsedShellCommand): void {
  switch (node.type) {
    case 'command': {
      const words: Array<string | null> = [];
      let assignments = 0;
      for (const child of node.namedChildren) {
        if (!child) continue;
        if (child.type === 'variable_assignment') assignments++;
        else if (!child.type.endsWith('redirect')) words.push(staticValue(child));
      }
      into.commands.push({ words, assignments });
      break;
    }
    case 'declaration_command':
    case 'unset_command': {
      // `export X=$(...)`, `local`, `unset`: a builtin named by its keyword.
      const keyword = node.firstChild?.text ?? null;
      into.commands.push({ words: [keyword, ...node.namedChildren.filter((c) => c && !c.type.endsWith('redirect')).map((c) => (c ? staticValue(c) : null))], assignments: 0 });
      break;
    }
    case 'variable_assignment':
    case 'variable_assignments':
      // A statement of assignments alone (`PATH=.`): changes what later commands run.
      if (node.parent?.type !== 'command' && node.parent?.type !== 'declaration_command' && node.parent?.type !== 'variable_assignments') {
        into.commands.push({ words: [], assignments: 1 });
      }
      break;
    case 'file_redirect':
    case 'herestring_redirect':
    case 'heredoc_redirect': {
      const target = node.childForFieldName('destination') ?? (node.type === 'file_redirect' ? node.lastNamedChild : null);
      into.redirections.push({ operator: operatorOf(node), target: node.type === 'heredoc_redirect' ? null : target ? staticValue(target) : null });
      break;
    }
    default:
      break;
  }
  for (const child of node.namedChildren) if (child) collect(child, into);
}

/**
 * Every simple command and redirection of `command`, or null when it cannot be parsed (or is longer than
 * `MAX_PARSED_COMMAND_CHARS`).
 *
 * @example
 * await parseShellCommand('echo hi && /bin/rm -rf d')
 * // { commands: [{ words: ['echo', 'hi'], assignments: 0 }, { words: ['/bin/rm', '-rf', 'd'], assignments: 0 }], redirections: [] }
 */
export async function parseShellCommand(command: string): Promise<ParsedShellCommand | null> {
  if (command.length > MAX_PARSED_COMMAND_CHARS || command.includes('\0')) return null;
  const parser = await bashParser();
  const tree = parser.parse(command);
  if (!tree) return null;
  try {
    if (tree.rootNode.hasError) return null;
    const parsed: ParsedShellCommand = { commands: [], redirections: [] };
    collect(tree.rootNode, parsed);
    return parsed;
  } finally {
    tree.delete();
  }
}

/** The expansions whose value comes from a variable or a command when the command runs (backticks aside). */
const EXPANSIONS = new Set(['simple_expansion', 'expansion', 'command_substitution']);

function hasExpansion(node: Node): boolean {
  if (EXPANSIONS.has(node.type) && node.text.startsWith('$')) return true;
  for (const child of node.children) if (child && hasExpansion(child)) return true;
  return false;
}

/**
 * Whether `command` expands a variable or a command's output (`$NAME`, `${...}`, `$(...)`) where the shell would
 * expand it: not in single quotes, not escaped, in double quotes too. A command that does not parse is read as far
 * as the grammar got; one too long to parse is false.
 */
export async function expandsVariable(command: string): Promise<boolean> {
  if (command.length > MAX_PARSED_COMMAND_CHARS || command.includes('\0')) return false;
  const parser = await bashParser();
  const tree = parser.parse(command);
  if (!tree) return false;
  try {
    return hasExpansion(tree.rootNode);
  } finally {
    tree.delete();
  }
}
