/**
 * The chart pane: highlights a step on the inline SVG and lets the reader zoom and pan it.
 *
 * - highlight: the active state (and its compound parents), the transitions taken, the states they passed;
 *   a step that stayed in its state (a targetless or self transition) makes the state pulse. Only the elements
 *   marked by the previous step are cleared, so a step costs the same whatever the chart's size.
 * - zoom and pan move the SVG's wrapper with a CSS transform: wheel (around the pointer), drag, keyboard (+ − 0 and the arrow
 *   keys when the pane has focus), "fit" (the whole chart, but never below MIN_FIT_SCALE: then around the active
 *   state) and "follow" (centre the active state after every step).
 */
import type { Chart } from '../graph.ts';

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Where the chart sits in the pane: pane pixel = t + scale × chart unit. */
export interface Viewport {
  scale: number;
  tx: number;
  ty: number;
}

export interface ChartView {
  show(active: string, taken: string[], stayed: boolean): void;
  /** The whole chart if it is legible so (≥ MIN_FIT_SCALE), else the active state's part of it at that scale. */
  fit(): void;
  /** The whole chart in the pane, however small. */
  overview(): void;
  actualSize(): void;
  zoomBy(factor: number): void;
  panBy(dx: number, dy: number): void;
  setFollow(on: boolean): void;
  readonly follow: boolean;
  viewport(): Viewport;
}

const MIN_SCALE = 0.1;
const MAX_SCALE = 6;
/**
 * "Fit" never shrinks the chart below this: at 12 px text, 60% is the smallest size still read without effort.
 * A chart too big for the pane at this scale is shown around the active state instead, and the reader pans.
 */
export const MIN_FIT_SCALE = 0.6;

export function createChartView(pane: HTMLElement, svg: SVGSVGElement, chart: Chart, onChange: (scale: number) => void = () => undefined): ChartView {
  const stateEls = new Map<string, Element>();
  svg.querySelectorAll('[data-state]').forEach((el) => stateEls.set(el.getAttribute('data-state')!, el));
  const edgeEls = new Map<string, Element>();
  svg.querySelectorAll('[data-transition]').forEach((el) => edgeEls.set(el.getAttribute('data-transition')!, el));
  const parents = new Map(chart.states.map((s) => [s.id, s.parent]));
  const byId = new Map(chart.transitions.map((t) => [t.id, t]));
  const full = { w: Number(svg.getAttribute('width')) || 1000, h: Number(svg.getAttribute('height')) || 800 };
  // Zoom and pan move the SVG's HTML wrapper with a CSS transform. Changing the viewBox, or a transform on the
  // <svg> itself, makes Chromium lay out every text of the chart again (~15 ms); the wrapper's transform does not.
  const stage = svg.parentElement as HTMLElement;
  stage.style.transformOrigin = '0 0';
  let view: Viewport = { scale: 1, tx: 0, ty: 0 };
  let marked: Array<[Element, string]> = [];
  let following = true;
  let activeEl: Element | null = null;
  let pulseFlip = false;
  const boxes = new Map<Element, Box>();

  // Read once and on resize: reading it after a class change would force a style and layout pass per step.
  let size = { w: pane.clientWidth || 800, h: pane.clientHeight || 600 };
  if (typeof ResizeObserver !== 'undefined') {
    new ResizeObserver(() => {
      size = { w: pane.clientWidth || size.w, h: pane.clientHeight || size.h };
    }).observe(pane);
  }
  function apply(): void {
    stage.style.transform = `translate(${view.tx}px, ${view.ty}px) scale(${view.scale})`;
    onChange(view.scale);
  }
  /** A view at `scale` with chart point (cx, cy) in the middle of the pane. */
  function centred(cx: number, cy: number, scale: number): Viewport {
    return { scale, tx: size.w / 2 - cx * scale, ty: size.h / 2 - cy * scale };
  }
  const clampScale = (s: number) => Math.min(MAX_SCALE, Math.max(MIN_SCALE, s));
  function boxOf(el: Element): Box {
    let box = boxes.get(el);
    if (!box) {
      const b = (el as SVGGraphicsElement).getBBox();
      box = { x: b.x, y: b.y, w: b.width, h: b.height };
      boxes.set(el, box);
    }
    return box;
  }
  function followActive(): void {
    if (!following || !activeEl) return;
    const b = boxOf(activeEl);
    view = centred(b.x + b.w / 2, b.y + b.h / 2, view.scale < 0.8 ? 1 : view.scale);
    apply();
  }
  function mark(el: Element | undefined, cls: string): void {
    if (!el) return;
    el.classList.add(cls);
    marked.push([el, cls]);
  }
  /** Zooms by `factor` keeping pane point (px, py) over the same chart point. */
  function zoomAround(factor: number, px: number, py: number): void {
    const scale = clampScale(view.scale * factor);
    const k = scale / view.scale;
    view = { scale, tx: px - (px - view.tx) * k, ty: py - (py - view.ty) * k };
    apply();
  }

  pane.addEventListener(
    'wheel',
    (e) => {
      e.preventDefault();
      const r = pane.getBoundingClientRect();
      zoomAround(Math.exp(-e.deltaY * 0.0015), e.clientX - r.left, e.clientY - r.top);
    },
    { passive: false },
  );
  let drag: { x: number; y: number; view: Viewport } | null = null;
  pane.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    drag = { x: e.clientX, y: e.clientY, view: { ...view } };
    pane.setPointerCapture(e.pointerId);
    pane.classList.add('dragging');
  });
  pane.addEventListener('pointermove', (e) => {
    if (!drag) return;
    view = { ...drag.view, tx: drag.view.tx + (e.clientX - drag.x), ty: drag.view.ty + (e.clientY - drag.y) };
    apply();
  });
  const endDrag = () => {
    drag = null;
    pane.classList.remove('dragging');
  };
  pane.addEventListener('pointerup', endDrag);
  pane.addEventListener('pointercancel', endDrag);
  pane.addEventListener('keydown', (e) => {
    const keys: Record<string, () => void> = {
      '+': () => api.zoomBy(1.25),
      '=': () => api.zoomBy(1.25),
      '-': () => api.zoomBy(0.8),
      '0': () => api.actualSize(),
      ArrowLeft: () => api.panBy(60, 0),
      ArrowRight: () => api.panBy(-60, 0),
      ArrowUp: () => api.panBy(0, 60),
      ArrowDown: () => api.panBy(0, -60),
    };
    const run = keys[e.key];
    if (run && !e.altKey && !e.ctrlKey && !e.metaKey) {
      run();
      e.preventDefault();
      e.stopPropagation();
    }
  });

  const api: ChartView = {
    show(active, taken, stayed) {
      for (const [el, cls] of marked) el.classList.remove(cls);
      marked = [];
      for (const id of taken) {
        const t = byId.get(id);
        if (!t) continue;
        mark(edgeEls.get(id), 'taken');
        if (t.source) mark(stateEls.get(t.source), 'visited');
        if (t.target) mark(stateEls.get(t.target), 'visited');
      }
      activeEl = stateEls.get(active) ?? null;
      mark(activeEl ?? undefined, 'active');
      for (let p = parents.get(active); p; p = parents.get(p)) mark(stateEls.get(p), 'active-parent');
      if (stayed && activeEl) {
        // Two classes with the same animation under two names: switching restarts it without forcing a layout.
        pulseFlip = !pulseFlip;
        mark(activeEl, pulseFlip ? 'pulse-a' : 'pulse-b');
      }
      followActive();
    },
    fit() {
      const whole = Math.min(size.w / full.w, size.h / full.h);
      if (whole >= MIN_FIT_SCALE || !activeEl) {
        view = centred(full.w / 2, full.h / 2, clampScale(Math.max(whole, MIN_FIT_SCALE)));
      } else {
        const b = boxOf(activeEl);
        view = centred(b.x + b.w / 2, b.y + b.h / 2, MIN_FIT_SCALE);
      }
      apply();
    },
    overview() {
      view = centred(full.w / 2, full.h / 2, clampScale(Math.min(size.w / full.w, size.h / full.h)));
      apply();
    },
    actualSize() {
      zoomAround(1 / view.scale, size.w / 2, size.h / 2);
    },
    zoomBy(factor) {
      zoomAround(factor, size.w / 2, size.h / 2);
    },
    /** Moves the chart by (dx, dy) pane pixels. */
    panBy(dx, dy) {
      view = { ...view, tx: view.tx + dx, ty: view.ty + dy };
      apply();
    },
    setFollow(on) {
      following = on;
      followActive();
    },
    get follow() {
      return following;
    },
    viewport: () => ({ ...view }),
  };
  view = centred(full.w / 2, full.h / 2, 1);
  apply();
  return api;
}
