/**
 * A list that only builds the rows in view: fixed row height, a spacer for the full height and a small pool of
 * absolutely positioned rows that are re-filled on scroll. Showing step 7,999 of 8,000 costs the same as step 1.
 *
 * It never reads layout while the page is being updated: the container's height is read on resize and its
 * scroll offset in the scroll handler; a row that already shows the right index is only restyled, and the
 * scroll offset is written only when the row to reveal is out of view.
 */

export interface VirtualList {
  readonly element: HTMLElement;
  /** Sets the number of rows (rows already drawn keep their content) and redraws the visible ones. */
  setCount(count: number): void;
  /** Scrolls so that row `index` is visible (`'end'`: as the last visible row), then redraws. */
  reveal(index: number, align?: 'nearest' | 'end'): void;
  /** Redraws the visible rows (after the data behind them changed). */
  refresh(): void;
}

export interface RowRenderer {
  /** Writes row `index` into a pooled element. */
  fill(row: HTMLElement, index: number): void;
  /** Updates what depends on the selection only (cheaper than `fill`); defaults to `fill`. */
  restyle?(row: HTMLElement, index: number): void;
}

export function createVirtualList(container: HTMLElement, rowHeight: number, render: RowRenderer): VirtualList {
  const spacer = document.createElement('div');
  spacer.className = 'vl-spacer';
  container.appendChild(spacer);
  const pool: Array<{ el: HTMLElement; index: number }> = [];
  let count = 0;
  let height = container.clientHeight || 300;
  let top = 0;
  let dirty = true;

  function draw(): void {
    const first = Math.max(0, Math.floor(top / rowHeight) - 2);
    const visible = Math.ceil(height / rowHeight) + 4;
    const last = Math.min(count, first + visible);
    while (pool.length < visible) {
      const el = document.createElement('div');
      el.className = 'vl-row';
      el.style.height = `${rowHeight}px`;
      el.hidden = true;
      container.appendChild(el);
      pool.push({ el, index: -1 });
    }
    // Rows keep their index when they can, so scrolling by one row re-fills one row, not all of them.
    const wanted = new Set<number>();
    for (let i = first; i < last; i++) wanted.add(i);
    const free = pool.filter((r) => !wanted.has(r.index) || dirty);
    const kept = new Set(pool.filter((r) => !free.includes(r)).map((r) => r.index));
    let next = 0;
    for (let i = first; i < last; i++) {
      if (kept.has(i)) continue;
      const r = free[next++]!;
      r.index = i;
      r.el.hidden = false;
      r.el.style.transform = `translateY(${i * rowHeight}px)`;
      r.el.dataset['index'] = String(i);
      render.fill(r.el, i);
    }
    for (; next < free.length; next++) {
      free[next]!.index = -1;
      free[next]!.el.hidden = true;
    }
    for (const r of pool) if (r.index >= 0 && kept.has(r.index)) (render.restyle ?? render.fill)(r.el, r.index);
    dirty = false;
  }

  container.addEventListener(
    'scroll',
    () => {
      top = container.scrollTop;
      draw();
    },
    { passive: true },
  );
  if (typeof ResizeObserver !== 'undefined') {
    new ResizeObserver(() => {
      height = container.clientHeight || height;
      draw();
    }).observe(container);
  }

  function scrollTo(value: number): void {
    const clamped = Math.max(0, Math.min(value, count * rowHeight - height));
    if (clamped === top) return;
    top = Math.max(0, clamped);
    container.scrollTop = top;
  }

  return {
    element: container,
    setCount(n) {
      if (n !== count) {
        count = n;
        spacer.style.height = `${n * rowHeight}px`;
      }
      draw();
    },
    reveal(index, align = 'nearest') {
      const rowTop = index * rowHeight;
      if (align === 'end') scrollTo(rowTop + rowHeight - height);
      else if (rowTop < top) scrollTo(rowTop);
      else if (rowTop + rowHeight > top + height) scrollTo(rowTop + rowHeight - height);
      draw();
    },
    refresh() {
      dirty = true;
      draw();
    },
  };
}
