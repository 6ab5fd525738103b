#!/usr/bin/env node
// The floor for a stdio gateway: the least a relay in front of one backend must do per message.
// It spawns the server named on its command line, parses each line from either side, gives every
// request a fresh id of its own (answers get the client's id back), adds or strips the `echo__` tool
// prefix, and serializes again. No validation, no telemetry, no sessions: what the Patchbay gateway
// costs above this is the price of everything else it does.
import { spawn } from "node:child_process";

const prefix = "echo__";
const [command, ...args] = process.argv.slice(2);
const backend = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
const clientIds = new Map();
let nextId = 1;

/** Calls `onLine` with each newline-terminated line of `stream` (searching only new chunks). */
function eachLine(stream, onLine) {
  let parts = [];
  stream.setEncoding("utf8");
  stream.on("data", (chunk) => {
    let start = 0;
    let newline = chunk.indexOf("\n");
    while (newline !== -1) {
      parts.push(chunk.slice(start, newline));
      const line = parts.length === 1 ? parts[0] : parts.join("");
      parts = [];
      if (line !== "") onLine(line);
      start = newline + 1;
      newline = chunk.indexOf("\n", start);
    }
    if (start < chunk.length) parts.push(chunk.slice(start));
  });
}

eachLine(process.stdin, (line) => {
  const message = JSON.parse(line);
  if (message.method === "tools/call" && message.params?.name?.startsWith(prefix)) {
    message.params.name = message.params.name.slice(prefix.length);
  }
  if (message.id !== undefined && message.method !== undefined) {
    const id = nextId++;
    clientIds.set(id, message.id);
    message.id = id;
  }
  backend.stdin.write(`${JSON.stringify(message)}\n`);
});
process.stdin.on("end", () => backend.stdin.end());

eachLine(backend.stdout, (line) => {
  const message = JSON.parse(line);
  if (message.method === undefined && clientIds.has(message.id)) {
    const id = message.id;
    message.id = clientIds.get(id);
    clientIds.delete(id);
    for (const tool of message.result?.tools ?? []) tool.name = `${prefix}${tool.name}`;
  }
  process.stdout.write(`${JSON.stringify(message)}\n`);
});
backend.on("exit", (code) => process.exit(code ?? 1));
process.on("SIGTERM", () => backend.kill("SIGTERM"));
