/**
 * The DOT export in Graphviz itself (`dot`, Debian's graphviz; .ci/run installs it): it renders to SVG, and the
 * layout Graphviz computes (`-Tjson`) has no edge label over another label or a node.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { exportDot } from '../../../src/viz/export-dot.ts';
import { dotBoxes, overlaps } from './overlap.ts';

function hasDot(): boolean {
  try {
    execFileSync('dot', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const available = hasDot();
const SKIP = 'SKIPPED: Graphviz `dot` is absent (install it with: apt-get install -y graphviz)';
if (!available) console.warn(`DOT render tests ${SKIP}`);

const run = (format: string, input: string) => execFileSync('dot', [`-T${format}`], { input, encoding: 'utf8', maxBuffer: 64 << 20 });

describe.skipIf(!available)(available ? 'the DOT export in Graphviz' : `the DOT export in Graphviz (${SKIP})`, () => {
  const dot = exportDot();

  it('renders to SVG with every state drawn', () => {
    const svg = run('svg', dot);
    expect(svg).toMatch(/^<\?xml/);
    expect(svg).toContain('<title>exitLadder.stopHooks</title>');
    expect(svg.match(/class="node"/g)!.length).toBeGreaterThanOrEqual(40);
  });

  it('lays out no edge label over another label or a node', () => {
    const boxes = dotBoxes(JSON.parse(run('json', dot)));
    expect(boxes.filter((b) => b.kind === 'label').length).toBeGreaterThan(40);
    expect(overlaps(boxes)).toEqual([]);
  });

  it('the overlap check sees an overlap when there is one', () => {
    const crowded = 'digraph { a -> a [label="first loop label"]; a -> a [label="second loop label"]; a -> a [label="third"]; }';
    const boxes = dotBoxes(JSON.parse(run('json', crowded)));
    const forced = boxes.map((b) => (b.kind === 'label' ? { ...b, x0: 0, x1: 100, y0: 0, y1: 10 } : b));
    expect(overlaps(forced).length).toBeGreaterThan(0);
  });
});
