import type { ChildProcess } from "node:child_process";
import { createLineDecoder, type JSONRPCId } from "@patchbay/jsonrpc-core";
import { exited } from "./processes.js";

/** A JSON-RPC response as read from the wire (not validated: the peer under test wrote it). */
export interface WireResponse {
  id: JSONRPCId | null;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** The key responses are counted under: the id as JSON, so 1 and "1" differ. */
export const idKey = (id: unknown): string => JSON.stringify(id) ?? "undefined";

interface Waiter {
  resolve(response: WireResponse): void;
  reject(error: Error): void;
}

const MAX_STDERR_CHARS = 64 * 1024;

/**
 * The client side of a newline-delimited JSON-RPC child process, written without Patchbay's
 * Connection so that it can send anything and see exactly what comes back: every response is
 * counted by id, so a test can assert that each request was answered exactly once.
 */
export class LinePeer {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Responses received per {@link idKey}. */
  readonly counts = new Map<string, number>();
  /** How many notifications and requests the peer sent us, per method. */
  readonly incoming = new Map<string, number>();
  /** The first 100 lines that were not JSON (they break the stdio rules). */
  readonly garbage: string[] = [];
  #stderr = "";
  #nextId = 0;
  readonly #waiters = new Map<string, Waiter[]>();

  constructor(child: ChildProcess) {
    if (child.pid === undefined || child.stdout === null || child.stdin === null) {
      throw new Error("the child needs a pid and piped stdin and stdout");
    }
    this.child = child;
    this.pid = child.pid;
    const decoder = createLineDecoder({
      maxLineBytes: 512 * 1024 * 1024,
      onLine: (line) => this.#onLine(line),
      onError: (error) => this.#noteGarbage(error.message),
    });
    child.stdout.on("data", (chunk: Uint8Array) => decoder.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => {
      if (this.#stderr.length < MAX_STDERR_CHARS) this.#stderr += chunk.toString();
    });
    // Writing to a child that died must fail the test through its assertions, not crash vitest.
    child.stdin.on("error", () => {});
    child.once("exit", (code, signal) => {
      for (const [key, waiters] of this.#waiters) {
        for (const waiter of waiters) {
          waiter.reject(new Error(`the child exited (${signal ?? code}) before answering ${key}`));
        }
      }
      this.#waiters.clear();
    });
  }

  /** What the child wrote to stderr (the first 64 KiB). */
  get stderr(): string {
    return this.#stderr;
  }

  /** True while the child runs. */
  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Writes raw text or bytes to the child's stdin. */
  write(data: string | Uint8Array): void {
    this.child.stdin?.write(data);
  }

  /** A fresh id no test frame uses (`req-N`). */
  nextId(): string {
    this.#nextId += 1;
    return `req-${this.#nextId}`;
  }

  /** Sends a request and resolves with its response (error responses resolve too). */
  request(method: string, params?: unknown, id: JSONRPCId = this.nextId()): Promise<WireResponse> {
    const answer = this.answer(id);
    this.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    return answer;
  }

  /** Sends a notification. */
  notify(method: string, params?: unknown): void {
    this.write(`${JSON.stringify({ jsonrpc: "2.0", method, params })}\n`);
  }

  /** Resolves with the next response that carries `id`. */
  answer(id: JSONRPCId | null): Promise<WireResponse> {
    if (!this.alive) return Promise.reject(new Error("the child has exited"));
    return new Promise((resolve, reject) => {
      const key = idKey(id);
      const list = this.#waiters.get(key) ?? [];
      list.push({ resolve, reject });
      this.#waiters.set(key, list);
    });
  }

  /** Runs the MCP handshake as a client with no capabilities. */
  async initialize(protocolVersion = "2025-06-18"): Promise<WireResponse> {
    const response = await this.request("initialize", {
      protocolVersion,
      capabilities: {},
      clientInfo: { name: "robustness", version: "1.0.0" },
    });
    this.notify("notifications/initialized");
    return response;
  }

  /**
   * Ends stdin (the polite stop for stdio servers) and waits for the exit. A child still running
   * after `deadlineMs` is killed so that nothing is left behind; then this resolves false.
   */
  async close(deadlineMs = 10_000): Promise<boolean> {
    this.child.stdin?.end();
    let polite = true;
    const deadline = setTimeout(() => {
      polite = false;
      this.child.kill("SIGKILL");
    }, deadlineMs);
    await exited(this.child);
    clearTimeout(deadline);
    return polite;
  }

  #noteGarbage(text: string): void {
    if (this.garbage.length < 100) this.garbage.push(text);
  }

  #onLine(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.#noteGarbage(line.slice(0, 200));
      return;
    }
    for (const message of Array.isArray(value) ? value : [value]) this.#onMessage(message);
  }

  #onMessage(message: unknown): void {
    if (typeof message !== "object" || message === null) return;
    const record = message as Record<string, unknown>;
    if (typeof record.method === "string") {
      this.incoming.set(record.method, (this.incoming.get(record.method) ?? 0) + 1);
      return;
    }
    const key = idKey(record.id);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    const list = this.#waiters.get(key);
    const waiter = list?.shift();
    if (list?.length === 0) this.#waiters.delete(key);
    waiter?.resolve(record as unknown as WireResponse);
  }
}
