#!/usr/bin/env node
// Micro-benchmark of the client's SSE reading, run against the built dist (`pnpm build` first):
//   pnpm --filter @patchbay/transport-http bench
// Pass another build's entry to measure it (for example main's), relative to the working directory:
//   node packages/transport-http/bench/sse-parser.bench.mjs /work/main/packages/transport-http/dist/index.js
// Prints one line per case: MB of SSE text parsed per second and mean time per pass, from the
// fastest of BENCH_ROUNDS rounds (default 5).
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createParser } from "eventsource-parser";

const entry =
  process.argv[2] === undefined
    ? new URL("../dist/index.js", import.meta.url).href
    : pathToFileURL(resolve(process.argv[2])).href;
const { createSseParser, limitSseEvents, readSseBody } = await import(entry);

// What an MCP server streams: JSON-RPC notifications and results, one per event, with ids.
const message = JSON.stringify({
  jsonrpc: "2.0",
  method: "notifications/progress",
  params: { progressToken: "call-42", progress: 17, total: 100, message: "x".repeat(120) },
});
const manyEvents = Array.from(
  { length: 1_000 },
  (_, id) => `id: stream-1:${id}\nevent: message\ndata: ${message}\n\n`,
).join("");
const oneLargeEvent = `data: ${JSON.stringify({ text: "y".repeat(1024 * 1024) })}\n\n`;

function chunksOf(text, size) {
  const chunks = [];
  for (let index = 0; index < text.length; index += size)
    chunks.push(text.slice(index, index + size));
  return chunks;
}

// The machine is shared: each case runs in several rounds and the fastest round is reported.
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);

function report(name, bytes, passes, elapsedMs) {
  const megabytesPerSecond = ((bytes * passes) / 1024 / 1024 / (elapsedMs / 1000)).toFixed(0);
  const microseconds = ((elapsedMs * 1000) / passes).toFixed(0);
  console.log(
    `${name.padEnd(58)} ${megabytesPerSecond.padStart(6)} MB/s ${microseconds.padStart(8)} us/pass`,
  );
}

function measureSync(name, text, passes, parseOnce) {
  for (let index = 0; index < Math.max(3, passes / 10); index++) parseOnce();
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    for (let index = 0; index < passes; index++) parseOnce();
    best = Math.min(best, performance.now() - start);
  }
  report(name, text.length, passes, best);
}

async function measureAsync(name, text, passes, parseOnce) {
  for (let index = 0; index < Math.max(3, passes / 10); index++) await parseOnce();
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    for (let index = 0; index < passes; index++) await parseOnce();
    best = Math.min(best, performance.now() - start);
  }
  report(name, text.length, passes, best);
}

function parseWithOurs(chunks) {
  let events = 0;
  const parser = createSseParser({ onEvent: () => events++ });
  for (const chunk of chunks) parser.push(chunk);
  return events;
}

function parseWithLibrary(chunks) {
  let events = 0;
  const parser = createParser({ onEvent: () => events++ });
  for (const chunk of chunks) parser.feed(chunk);
  return events;
}

function bodyOf(bytes, size) {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) controller.close();
      else {
        controller.enqueue(bytes.subarray(offset, offset + size));
        offset += size;
      }
    },
  });
}

const cases = [
  ["1,000 MCP events in 16 KB chunks", manyEvents, chunksOf(manyEvents, 16 * 1024), 100],
  ["1,000 MCP events in 100 B chunks", manyEvents, chunksOf(manyEvents, 100), 50],
  ["one 1 MB event in 64 KB chunks", oneLargeEvent, chunksOf(oneLargeEvent, 64 * 1024), 30],
];
for (const [name, text, chunks, passes] of cases) {
  if (parseWithOurs(chunks) !== parseWithLibrary(chunks)) throw new Error(`${name}: counts differ`);
  measureSync(`createSseParser: ${name}`, text, passes, () => parseWithOurs(chunks));
  measureSync(`eventsource-parser alone: ${name}`, text, passes, () => parseWithLibrary(chunks));
}

// The client's path: bytes from a stream, decoded, parsed, each event handed over in turn.
const streamed = new TextEncoder().encode(manyEvents);
await measureAsync("readSseBody: 1,000 MCP events in 16 KB chunks", manyEvents, 100, () =>
  readSseBody(bodyOf(streamed, 16 * 1024), { onEvent: () => {} }),
);
await measureAsync("readSseBody + limitSseEvents: the same", manyEvents, 200, () =>
  readSseBody(limitSseEvents(bodyOf(streamed, 16 * 1024), 16 * 1024 * 1024), {
    onEvent: () => {},
  }),
);
