/** Cuts `bytes` at the given positions (any position: inside characters too). */
export function cut(bytes: Uint8Array, positions: number[]): Uint8Array[] {
  const sorted = [...new Set(positions.map((position) => position % (bytes.length + 1)))].sort(
    (a, b) => a - b,
  );
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const position of sorted) {
    chunks.push(bytes.subarray(start, position));
    start = position;
  }
  chunks.push(bytes.subarray(start));
  return chunks;
}
