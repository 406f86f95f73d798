/** "Did you mean …?" for a mistyped command or flag: the closest known name, if it is close enough to be a typo. */

/** Edit distance (insert, delete, substitute, swap two neighbours). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The known name closest to `typed` (a prefix counts as close), or undefined when none is plausibly meant. */
export function closestName(typed: string, known: readonly string[]): string | undefined {
  const lower = typed.toLowerCase();
  const prefixed = known.filter((name) => lower.length >= 2 && name.startsWith(lower));
  if (prefixed.length === 1) return prefixed[0];
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(lower, name.toLowerCase());
    if (!best || distance < best.distance) best = { name, distance };
  }
  const allowed = Math.max(1, Math.floor(Math.min(lower.length, best?.name.length ?? 0) / 3));
  return best && best.distance <= allowed ? best.name : undefined;
}

export function didYouMean(typed: string, known: readonly string[], format: (name: string) => string = (name) => name): string {
  const name = closestName(typed, known);
  return name === undefined ? '' : ` Did you mean '${format(name)}'?`;
}
