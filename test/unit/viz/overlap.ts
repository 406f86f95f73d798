/**
 * Geometry for the layout checks: boxes and the pairs of them that overlap. A box is a label or a node as the
 * real layout engine placed it (Graphviz's `-Tjson`, mermaid's SVG in Chromium).
 */
export interface Box {
  name: string;
  kind: 'label' | 'node';
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Points two boxes may touch by (rounding in the engines' own coordinates). */
const TOLERANCE = 1;

function intersects(a: Box, b: Box): boolean {
  return a.x0 < b.x1 - TOLERANCE && b.x0 < a.x1 - TOLERANCE && a.y0 < b.y1 - TOLERANCE && b.y0 < a.y1 - TOLERANCE;
}

/** Every label that overlaps another label or a node, as `label ↔ other` strings. */
export function overlaps(boxes: Box[]): string[] {
  const out: string[] = [];
  const labels = boxes.filter((b) => b.kind === 'label');
  for (let i = 0; i < labels.length; i++) {
    for (const other of [...labels.slice(i + 1), ...boxes.filter((b) => b.kind === 'node')]) {
      if (intersects(labels[i]!, other)) out.push(`${labels[i]!.name} ↔ ${other.kind} ${other.name}`);
    }
  }
  return out;
}

interface DotJson {
  objects: Array<{ name: string; pos?: string; width?: string; height?: string; nodes?: unknown }>;
  edges?: Array<{ tail: number; head: number; label?: string; _ldraw_?: Array<{ op: string; pt?: [number, number]; align?: string; width?: number; size?: number; text?: string }> }>;
}

/** The node boxes and edge-label boxes of Graphviz's `-Tjson` output (points, y up). */
export function dotBoxes(json: DotJson): Box[] {
  const boxes: Box[] = [];
  for (const o of json.objects) {
    if (!o.pos || o.nodes !== undefined) continue; // clusters have no pos; nodes do
    const [x, y] = o.pos.split(',').map(Number) as [number, number];
    const w = Number(o.width) * 72;
    const h = Number(o.height) * 72;
    boxes.push({ name: o.name, kind: 'node', x0: x - w / 2, y0: y - h / 2, x1: x + w / 2, y1: y + h / 2 });
  }
  for (const e of json.edges ?? []) {
    let size = 14;
    const lines: Array<Omit<Box, 'name' | 'kind'>> = [];
    let text = '';
    for (const op of e._ldraw_ ?? []) {
      if (op.op === 'F' && op.size) size = op.size;
      if (op.op !== 'T' || !op.pt || op.width === undefined) continue;
      const [x, y] = op.pt;
      const x0 = op.align === 'l' ? x : op.align === 'r' ? x - op.width : x - op.width / 2;
      lines.push({ x0, x1: x0 + op.width, y0: y - size * 0.25, y1: y + size * 0.8 });
      text ||= op.text ?? '';
    }
    if (lines.length === 0) continue;
    boxes.push({
      name: `${json.objects[e.tail]?.name} → ${json.objects[e.head]?.name}: ${text.slice(0, 40)}`,
      kind: 'label',
      x0: Math.min(...lines.map((l) => l.x0)),
      x1: Math.max(...lines.map((l) => l.x1)),
      y0: Math.min(...lines.map((l) => l.y0)),
      y1: Math.max(...lines.map((l) => l.y1)),
    });
  }
  return boxes;
}
