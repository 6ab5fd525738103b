#!/usr/bin/env node
// Micro-benchmark of the line splitter under `createLineDecoder` (the stdio read path), run against
// the built dist (`pnpm build` first):
//   node bench/line-splitter.bench.mjs [path/to/another/dist/index.js]
// The optional argument measures another build (a copy of `main`'s dist, say), so that two builds
// can be run one after the other, alternating. Each case is timed REPEATS (5) times; it prints the
// best and the median ns per line (the best is the least disturbed by whatever else runs) and MB/s.
// ONLY=<text> runs only the cases whose name contains it.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const entry = process.argv[2]
  ? pathToFileURL(resolve(process.argv[2])).href
  : new URL("../dist/index.js", import.meta.url).href;
const { createLineDecoder, encodeLine } = await import(entry);
const repeats = Number(process.env.REPEATS ?? 5);
const only = process.env.ONLY;

const callTool = (id) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "github__create_issue", arguments: { title: "Bench", body: "x".repeat(80) } },
});
const encoder = new TextEncoder();
const smallLines = encoder.encode(
  Array.from({ length: 2_000 }, (_, id) => encodeLine(callTool(id))).join(""),
);
const longLine = (character) => `${JSON.stringify({ text: character.repeat(1 << 20) })}\n`;
const longAscii = encoder.encode(longLine("x").repeat(4));
const longUtf8 = encoder.encode(longLine("é").repeat(2));

/** Splits `bytes` in `chunkBytes` chunks `rounds` times, `repeats` times over; prints ns per line. */
function measure(name, bytes, chunkBytes, rounds, options = {}) {
  if (only !== undefined && !name.includes(only)) return;
  let lines = 0;
  const decoder = createLineDecoder({ ...options, onLine: () => lines++, onError: () => lines++ });
  const run = () => {
    for (let offset = 0; offset < bytes.length; offset += chunkBytes) {
      decoder.push(bytes.subarray(offset, offset + chunkBytes));
    }
  };
  for (let round = 0; round < Math.max(1, rounds / 5); round++) run();
  const timings = [];
  for (let repeat = 0; repeat < repeats; repeat++) {
    lines = 0;
    const start = performance.now();
    for (let round = 0; round < rounds; round++) run();
    const elapsedMs = performance.now() - start;
    if (lines === 0) throw new Error(`${name}: no line`);
    timings.push((elapsedMs * 1e6) / lines);
  }
  timings.sort((a, b) => a - b);
  const best = timings[0];
  const median = timings[Math.floor(timings.length / 2)];
  const linesPerRound = lines / rounds;
  const mbPerSecond = ((bytes.length / linesPerRound / best) * 1e3).toFixed(0);
  console.log(
    `${name.padEnd(46)} best ${best.toFixed(0).padStart(9)} median ${median.toFixed(0).padStart(9)} ns/line ${mbPerSecond.padStart(5)} MB/s`,
  );
}

for (const chunkBytes of [64, 1_024, 16_384, 65_536]) {
  measure(`2000 small lines in ${chunkBytes} B chunks`, smallLines, chunkBytes, 50);
}
measure("4 long ASCII lines (1 MiB) in 64 KiB chunks", longAscii, 65_536, 8);
measure("2 long UTF-8 lines (2 MiB) in 64 KiB chunks", longUtf8, 65_536, 8);
measure("4 overlong lines (1 MiB, limit 256 KiB)", longAscii, 65_536, 8, {
  maxLineBytes: 256 * 1024,
});
console.log(`${entry}, node ${process.version}`);
