import { idKey } from "./line-peer.js";

/** What one POST got back: the status and every JSON-RPC message in the body (JSON or SSE). */
export interface PostResult {
  status: number;
  messages: Record<string, unknown>[];
}

/**
 * A Streamable HTTP client that posts raw bytes and reads back whatever comes, with a session made
 * by a real `initialize`. Counts answers per id across every POST.
 */
export class HttpPeer {
  readonly url: URL;
  readonly counts = new Map<string, number>();
  #sessionId: string | undefined;
  readonly #protocolVersion: string;

  constructor(url: URL, protocolVersion = "2025-03-26") {
    this.url = url;
    this.#protocolVersion = protocolVersion;
  }

  /** Opens a session: initialize, then notifications/initialized. */
  async initialize(): Promise<void> {
    const response = await fetch(this.url, {
      method: "POST",
      headers: this.#headers(),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: "init",
        method: "initialize",
        params: {
          protocolVersion: this.#protocolVersion,
          capabilities: {},
          clientInfo: { name: "robustness", version: "1.0.0" },
        },
      }),
    });
    await response.text();
    if (!response.ok) throw new Error(`initialize failed with ${response.status}`);
    this.#sessionId = response.headers.get("mcp-session-id") ?? undefined;
    await this.post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  }

  /** Posts one body and reads the whole answer. */
  async post(body: string | Uint8Array): Promise<PostResult> {
    const response = await fetch(this.url, { method: "POST", headers: this.#headers(), body });
    const text = await response.text();
    const type = response.headers.get("content-type") ?? "";
    const messages = type.includes("text/event-stream") ? parseEvents(text) : parseJson(text);
    for (const message of messages) {
      if (typeof message.method === "string") continue;
      const key = idKey(message.id);
      this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    }
    return { status: response.status, messages };
  }

  /** Calls a method and returns its one response. */
  async request(method: string, params: unknown, id: string): Promise<Record<string, unknown>> {
    const { status, messages } = await this.post(
      JSON.stringify({ jsonrpc: "2.0", id, method, params }),
    );
    const answers = messages.filter((message) => message.id === id);
    if (answers.length !== 1) throw new Error(`${status}: ${answers.length} answers to ${id}`);
    return answers[0] as Record<string, unknown>;
  }

  #headers(): Record<string, string> {
    return {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": this.#protocolVersion,
      ...(this.#sessionId === undefined ? {} : { "mcp-session-id": this.#sessionId }),
    };
  }
}

function parseJson(text: string): Record<string, unknown>[] {
  if (text.trim() === "") return [];
  const value: unknown = JSON.parse(text);
  return (Array.isArray(value) ? value : [value]) as Record<string, unknown>[];
}

function parseEvents(text: string): Record<string, unknown>[] {
  const messages: Record<string, unknown>[] = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).trimStart())
      .join("\n");
    if (data !== "") messages.push(...parseJson(data));
  }
  return messages;
}
