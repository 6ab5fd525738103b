#!/usr/bin/env node
// `node trace-gc-filter.mjs <trace file> <script> [args...]`: runs `node --trace-gc-nvp <script>
// [args...]` as a stdio MCP peer, relaying stdin to it and its JSON lines back on stdout, and writes
// the lines V8's GC tracing prints on the same stdout (one per collection) to <trace file>. For
// `gc-trace.mjs`: the tracing cannot be sent anywhere but a process's stdout, which is the MCP
// channel. A line is relayed when it starts with `{` (every JSON-RPC message does); V8's start with
// `[`. Once the trace is written whole, it writes an empty `<trace file>.done` beside it and exits.
import { spawn } from "node:child_process";
import { createWriteStream, writeFileSync } from "node:fs";

const [traceFile, ...args] = process.argv.slice(2);
const child = spawn(process.execPath, ["--trace-gc-nvp", ...args], {
  stdio: ["pipe", "pipe", "inherit"],
});
const trace = createWriteStream(traceFile);
process.stdin.pipe(child.stdin);
child.stdout.setEncoding("utf8");
let rest = "";
child.stdout.on("data", (chunk) => {
  const lines = (rest + chunk).split("\n");
  rest = lines.pop() ?? "";
  let relayed = "";
  for (const line of lines) {
    if (line.startsWith("{")) relayed += `${line}\n`;
    else if (line !== "") trace.write(`${line}\n`);
  }
  if (relayed !== "") process.stdout.write(relayed);
});
child.on("exit", (code) =>
  trace.end(() => {
    writeFileSync(`${traceFile}.done`, "");
    process.exit(code ?? 0);
  }),
);
process.on("SIGTERM", () => child.kill("SIGTERM"));
