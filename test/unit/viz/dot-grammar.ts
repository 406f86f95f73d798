/**
 * A small checker for the Graphviz DOT language (https://graphviz.org/doc/info/lang.html): tokenizer plus a
 * recursive-descent parser of the full statement grammar (graph, node, edge, attribute and subgraph statements,
 * attribute lists, ports). No DOT parser ships with the installed packages, and `dot` itself is not installed,
 * so the export is checked against the grammar here. Throws `DotSyntaxError` with the offending token; returns
 * what it saw, so a test can also check that every edge endpoint is a declared node.
 */

export class DotSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at offset ${offset}`);
    this.name = 'DotSyntaxError';
  }
}

type Token = { kind: 'id' | 'punct' | 'edgeop' | 'keyword'; value: string; offset: number };

const KEYWORDS = new Set(['strict', 'graph', 'digraph', 'subgraph', 'node', 'edge']);

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const atLineStart = i === 0 || text[i - 1] === '\n';
    if (/\s/.test(c)) i++;
    else if (text.startsWith('//', i) || (c === '#' && atLineStart)) i = text.indexOf('\n', i) === -1 ? text.length : text.indexOf('\n', i);
    else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) throw new DotSyntaxError('unterminated comment', i);
      i = end + 2;
    } else if (text.startsWith('->', i) || text.startsWith('--', i)) {
      tokens.push({ kind: 'edgeop', value: text.slice(i, i + 2), offset: i });
      i += 2;
    } else if ('{}[]=;,:'.includes(c)) tokens.push({ kind: 'punct', value: c, offset: i++ });
    else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length) throw new DotSyntaxError('unterminated string', i);
      tokens.push({ kind: 'id', value: text.slice(i + 1, j).replace(/\\"/g, '"'), offset: i });
      i = j + 1;
    } else if (c === '<') {
      let depth = 0;
      let j = i;
      do {
        if (text[j] === '<') depth++;
        else if (text[j] === '>') depth--;
        j++;
      } while (depth > 0 && j < text.length);
      if (depth > 0) throw new DotSyntaxError('unterminated HTML string', i);
      tokens.push({ kind: 'id', value: text.slice(i + 1, j - 1), offset: i });
      i = j;
    } else {
      const m = /^(?:[A-Za-z_\u0080-\uffff][A-Za-z_0-9\u0080-\uffff]*|-?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?))/.exec(text.slice(i));
      if (!m) throw new DotSyntaxError(`unexpected character '${c}'`, i);
      const word = m[0];
      tokens.push({ kind: KEYWORDS.has(word.toLowerCase()) ? 'keyword' : 'id', value: word, offset: i });
      i += word.length;
    }
  }
  return tokens;
}

export interface DotGraph {
  directed: boolean;
  nodes: Set<string>;
  edges: Array<{ from: string; to: string; attrs: Record<string, string> }>;
  subgraphs: Set<string>;
}

/** Parses DOT text; throws `DotSyntaxError` when it is not in the language. */
export function parseDot(text: string): DotGraph {
  const tokens = tokenize(text);
  let pos = 0;
  const end = text.length;
  const peek = () => tokens[pos];
  const fail = (what: string): never => {
    throw new DotSyntaxError(`expected ${what}, got ${peek() ? `'${peek()!.value}'` : 'end of input'}`, peek()?.offset ?? end);
  };
  const is = (kind: Token['kind'], value?: string) => peek()?.kind === kind && (value === undefined || peek()!.value.toLowerCase() === value);
  const take = (kind: Token['kind'], value?: string): Token => (is(kind, value) ? tokens[pos++]! : fail(value ?? kind));
  const graph: DotGraph = { directed: true, nodes: new Set(), edges: [], subgraphs: new Set() };

  function attrList(): Record<string, string> {
    const attrs: Record<string, string> = {};
    while (is('punct', '[')) {
      pos++;
      while (is('id')) {
        const key = take('id').value;
        take('punct', '=');
        attrs[key] = take('id').value;
        if (is('punct', ';') || is('punct', ',')) pos++;
      }
      take('punct', ']');
    }
    return attrs;
  }
  function nodeId(): string {
    const id = take('id').value;
    if (is('punct', ':')) {
      pos++;
      take('id');
      if (is('punct', ':')) (pos++, take('id'));
    }
    return id;
  }
  function endpoint(): string[] {
    if (is('keyword', 'subgraph') || is('punct', '{')) return subgraph();
    return [nodeId()];
  }
  function subgraph(): string[] {
    if (is('keyword', 'subgraph')) {
      pos++;
      if (is('id')) graph.subgraphs.add(take('id').value);
    }
    take('punct', '{');
    const before = new Set(graph.nodes);
    stmtList();
    take('punct', '}');
    return [...graph.nodes].filter((n) => !before.has(n));
  }
  function stmt(): void {
    if (is('keyword', 'graph') || is('keyword', 'node') || is('keyword', 'edge')) {
      pos++;
      if (!is('punct', '[')) fail("'['");
      attrList();
      return;
    }
    if (is('keyword', 'subgraph') || is('punct', '{')) {
      const from = subgraph();
      if (is('edgeop')) edgeRest(from);
      return;
    }
    if (tokens[pos + 1]?.kind === 'punct' && tokens[pos + 1]!.value === '=') {
      take('id');
      pos++;
      take('id');
      return;
    }
    const from = [nodeId()];
    if (is('edgeop')) edgeRest(from);
    else {
      attrList();
      graph.nodes.add(from[0]!);
    }
  }
  function edgeRest(first: string[]): void {
    const chain = [first];
    while (is('edgeop')) {
      const op = take('edgeop').value;
      if (op !== (graph.directed ? '->' : '--')) throw new DotSyntaxError(`'${op}' in a ${graph.directed ? 'digraph' : 'graph'}`, tokens[pos - 1]!.offset);
      chain.push(endpoint());
    }
    const attrs = attrList();
    for (let i = 1; i < chain.length; i++) {
      for (const from of chain[i - 1]!) for (const to of chain[i]!) graph.edges.push({ from, to, attrs });
    }
  }
  function stmtList(): void {
    while (peek() && !is('punct', '}')) {
      stmt();
      if (is('punct', ';')) pos++;
    }
  }

  if (is('keyword', 'strict')) pos++;
  if (is('keyword', 'digraph')) graph.directed = true;
  else if (is('keyword', 'graph')) graph.directed = false;
  else fail("'graph' or 'digraph'");
  pos++;
  if (is('id')) pos++;
  take('punct', '{');
  stmtList();
  take('punct', '}');
  if (pos !== tokens.length) fail('end of input');
  return graph;
}
