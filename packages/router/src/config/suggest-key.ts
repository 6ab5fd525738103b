/** The known key closest to `key` (edit distance at most 2, or a case difference), if any. */
export function suggestKey(key: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  const lower = key.toLowerCase();
  for (const candidate of known) {
    const distance =
      candidate.toLowerCase() === lower ? 0 : editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const allowed = Math.min(2, Math.max(1, Math.floor(key.length / 3)));
  return bestDistance <= allowed ? best : undefined;
}

/** Levenshtein distance with transpositions counted as one edit (optimal string alignment). */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return Number.POSITIVE_INFINITY;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i] as number[];
      if (i === 0) {
        row.push(j);
        continue;
      }
      const previous = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        (previous[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row.push(value);
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}
