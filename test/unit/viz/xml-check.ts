/**
 * A small XML 1.0 well-formedness check (no DTDs): one root element, properly nested and closed tags, quoted
 * attribute values without `<`, no duplicate attribute, only the predefined or numeric entity references, and
 * comments, processing instructions and CDATA sections properly closed. Returns the element tree so a test can
 * query it. The browser test double-checks with the real `DOMParser`.
 */

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
}

export class XmlSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at offset ${offset}`);
    this.name = 'XmlSyntaxError';
  }
}

const NAME = /^[A-Za-z_:][A-Za-z0-9_:.\-]*/;
const ENTITY = /^&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9A-Fa-f]+);/;

function checkText(text: string, offset: number): void {
  for (let i = text.indexOf('&'); i >= 0; i = text.indexOf('&', i + 1)) {
    if (!ENTITY.test(text.slice(i))) throw new XmlSyntaxError('bad entity reference', offset + i);
  }
}

/** Parses `text`; throws `XmlSyntaxError` when it is not well-formed. */
export function parseXml(text: string): XmlElement {
  let i = 0;
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  const skipUntil = (marker: string, what: string) => {
    const end = text.indexOf(marker, i);
    if (end < 0) throw new XmlSyntaxError(`unterminated ${what}`, i);
    i = end + marker.length;
  };
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    const chunk = lt < 0 ? text.slice(i) : text.slice(i, lt);
    if (chunk.trim() !== '' && stack.length === 0) throw new XmlSyntaxError('text outside the root element', i);
    checkText(chunk, i);
    if (chunk.includes('>') && chunk.includes(']]>')) throw new XmlSyntaxError("']]>' in text", i);
    if (lt < 0) break;
    i = lt;
    if (text.startsWith('<?', i)) skipUntil('?>', 'processing instruction');
    else if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) throw new XmlSyntaxError('unterminated comment', i);
      if (text.slice(i + 4, end).includes('--')) throw new XmlSyntaxError("'--' inside a comment", i);
      i = end + 3;
    } else if (text.startsWith('<![CDATA[', i)) skipUntil(']]>', 'CDATA section');
    else if (text.startsWith('</', i)) {
      const m = NAME.exec(text.slice(i + 2));
      const open = stack.pop();
      if (!m || !open || open.name !== m[0]) throw new XmlSyntaxError(`unexpected closing tag ${m?.[0] ?? ''}`, i);
      i += 2 + m[0].length;
      while (/\s/.test(text[i] ?? '')) i++;
      if (text[i] !== '>') throw new XmlSyntaxError("expected '>'", i);
      i++;
    } else {
      const m = NAME.exec(text.slice(i + 1));
      if (!m) throw new XmlSyntaxError('bad tag name', i);
      const element: XmlElement = { name: m[0], attrs: {}, children: [] };
      i += 1 + m[0].length;
      for (;;) {
        const ws = /^\s*/.exec(text.slice(i))![0].length;
        i += ws;
        if (text.startsWith('/>', i) || text[i] === '>') break;
        if (ws === 0) throw new XmlSyntaxError('expected whitespace before an attribute', i);
        const a = /^([A-Za-z_:][A-Za-z0-9_:.\-]*)\s*=\s*("([^"]*)"|'([^']*)')/.exec(text.slice(i));
        if (!a) throw new XmlSyntaxError('bad attribute', i);
        const value = a[3] ?? a[4] ?? '';
        if (value.includes('<')) throw new XmlSyntaxError("'<' in an attribute value", i);
        checkText(value, i);
        if (a[1]! in element.attrs) throw new XmlSyntaxError(`duplicate attribute ${a[1]}`, i);
        element.attrs[a[1]!] = value;
        i += a[0].length;
      }
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(element);
      else if (root) throw new XmlSyntaxError('a second root element', i);
      else root = element;
      if (text.startsWith('/>', i)) i += 2;
      else {
        i += 1;
        stack.push(element);
      }
    }
  }
  if (stack.length > 0) throw new XmlSyntaxError(`unclosed element ${stack[stack.length - 1]!.name}`, text.length);
  if (!root) throw new XmlSyntaxError('no root element', 0);
  return root;
}

/** Every element of the tree, depth first. */
export function allElements(root: XmlElement): XmlElement[] {
  return [root, ...root.children.flatMap(allElements)];
}
