// A lean MCP client over Streamable HTTP on node:http with a keep-alive agent: one session
// (initialize, then Mcp-Session-Id on every POST), answers read as JSON or from an SSE body.
import { Agent, request as httpRequest } from "node:http";

export function createAgent(maxSockets) {
  return new Agent({ keepAlive: true, maxSockets });
}

function post(url, agent, headers, body) {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, {
      method: "POST",
      agent,
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        "Content-Length": Buffer.byteLength(body),
        ...headers,
      },
    });
    outgoing.on("response", (response) => {
      const chunks = [];
      response.on("data", (chunk) => chunks.push(chunk));
      response.on("end", () =>
        resolve({
          status: response.statusCode,
          headers: response.headers,
          text: Buffer.concat(chunks).toString("utf8"),
        }),
      );
      response.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

function readAnswer(response, id) {
  if (response.status >= 400) {
    throw new Error(`HTTP ${response.status}: ${response.text.slice(0, 200)}`);
  }
  const type = String(response.headers["content-type"] ?? "");
  if (!type.includes("text/event-stream")) return JSON.parse(response.text);
  for (const line of response.text.split("\n")) {
    if (!line.startsWith("data:")) continue;
    const message = JSON.parse(line.slice(5));
    if (message.id === id) return message;
  }
  throw new Error(`no answer to ${id} in the event stream`);
}

export class HttpPeer {
  #nextId = 1;
  #session = undefined;
  #protocol = "2025-06-18";

  constructor(url, agent, headers = {}) {
    this.url = url;
    this.agent = agent;
    this.headers = headers;
  }

  #headers() {
    const headers = { ...this.headers, "MCP-Protocol-Version": this.#protocol };
    if (this.#session !== undefined) headers["Mcp-Session-Id"] = this.#session;
    return headers;
  }

  async request(method, params) {
    const id = this.#nextId++;
    const body = JSON.stringify({ jsonrpc: "2.0", id, method, params });
    const response = await post(this.url, this.agent, this.#headers(), body);
    const session = response.headers["mcp-session-id"];
    if (session !== undefined) this.#session = session;
    const message = readAnswer(response, id);
    if (message.error) throw new Error(message.error.message);
    return message.result;
  }

  async initialize() {
    const result = await this.request("initialize", {
      protocolVersion: this.#protocol,
      capabilities: {},
      clientInfo: { name: "patchbay-bench", version: "1.0.0" },
    });
    const body = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
    await post(this.url, this.agent, this.#headers(), body);
    return result;
  }
}
