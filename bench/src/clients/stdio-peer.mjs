// A lean MCP client over a child's pipes: newline-delimited JSON-RPC, ids matched in a Map, nothing
// validated. It costs the same for every target, so differences between targets are theirs.
import { spawn } from "node:child_process";
import { once } from "node:events";

export class StdioPeer {
  #nextId = 1;
  #pending = new Map();
  #parts = [];

  // `stderr: "pipe"` keeps the child's stderr readable (the coverage probe answers there).
  constructor(command, args, env = process.env, stderr = "ignore") {
    this.child = spawn(command, args, { stdio: ["pipe", "pipe", stderr], env });
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (chunk) => this.#receive(chunk));
    this.exited = once(this.child, "exit");
  }

  get pid() {
    return this.child.pid;
  }

  #receive(chunk) {
    // Only the new chunk is searched for a line end, so a 50 MB line costs one join, not a rescan
    // per chunk.
    let newline = chunk.indexOf("\n");
    if (newline === -1) {
      this.#parts.push(chunk);
      return;
    }
    let start = 0;
    while (newline !== -1) {
      this.#parts.push(chunk.slice(start, newline));
      const line = this.#parts.join("");
      this.#parts = [];
      if (line !== "") this.#dispatch(JSON.parse(line));
      start = newline + 1;
      newline = chunk.indexOf("\n", start);
    }
    if (start < chunk.length) this.#parts.push(chunk.slice(start));
  }

  #dispatch(message) {
    const waiter = message.id === undefined ? undefined : this.#pending.get(message.id);
    if (waiter === undefined) return;
    this.#pending.delete(message.id);
    if (message.error) waiter.reject(new Error(message.error.message));
    else waiter.resolve(message.result);
  }

  request(method, params) {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  }

  notify(method, params) {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method, params })}\n`);
  }

  async initialize() {
    const result = await this.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "patchbay-bench", version: "1.0.0" },
    });
    this.notify("notifications/initialized");
    return result;
  }

  async close() {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 5_000);
    this.child.kill("SIGTERM");
    await this.exited;
    clearTimeout(timer);
  }
}
