// Loaded into the stdio gateway by `critical-path.mjs` (`node --import`): the time from each pipe
// 'data' event to the socket write that follows it, in this process. Writes to stdout are the
// answer path (backend's answer in, client's answer out); writes to a child's stdin the request
// path. At exit it writes the medians of the last calls to HOP_TIMER_FILE.
import { writeFileSync } from "node:fs";
import net from "node:net";
import { Readable } from "node:stream";

const file = process.env.HOP_TIMER_FILE;
const kept = Number(process.env.HOP_TIMER_KEEP ?? 4000);
const toBackend = [];
const toClient = [];
let lastData = 0;

const emit = Readable.prototype.emit;
Readable.prototype.emit = function timedEmit(event, ...args) {
  if (event === "data") lastData = performance.now();
  return emit.call(this, event, ...args);
};
const write = net.Socket.prototype.write;
net.Socket.prototype.write = function timedWrite(...args) {
  if (lastData !== 0) {
    (this === process.stdout ? toClient : toBackend).push(performance.now() - lastData);
    lastData = 0;
  }
  return write.apply(this, args);
};

function summary(spans) {
  const sorted = spans.slice(-kept).sort((a, b) => a - b);
  const at = (fraction) => Math.round(sorted[Math.floor(fraction * sorted.length)] * 10_000) / 10;
  return { count: sorted.length, p50: at(0.5), p90: at(0.9) };
}

process.on("exit", () => {
  if (file === undefined) return;
  writeFileSync(file, JSON.stringify({ request: summary(toBackend), answer: summary(toClient) }));
});
