// A lean MCP client over the legacy HTTP+SSE transport (2024-11-05) on node:http: one GET stream
// (its own socket), whose `endpoint` event says where to POST; each POST is answered 202 and the
// answer arrives as a `message` event on the stream, matched to its call by id. POSTs go over a
// keep-alive agent, so calls in flight use as many connections as the agent allows.
import { request as httpRequest } from "node:http";

function post(url, agent, body) {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, {
      method: "POST",
      agent,
      headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
    });
    outgoing.on("response", (response) => {
      const chunks = [];
      response.on("data", (chunk) => chunks.push(chunk));
      response.on("end", () => {
        if (response.statusCode >= 300) {
          const text = Buffer.concat(chunks).toString("utf8").slice(0, 200);
          reject(new Error(`POST answered HTTP ${response.statusCode}: ${text}`));
        } else resolve();
      });
      response.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/** The `event` name and joined `data` of one SSE event block. */
function parseEvent(block) {
  let event = "message";
  const data = [];
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith("event:")) event = line.slice(6).trim();
    else if (line.startsWith("data:")) data.push(line.slice(line[5] === " " ? 6 : 5));
  }
  return { event, data: data.join("\n") };
}

export class SsePeer {
  #nextId = 1;
  #pending = new Map();
  #stream;
  #endpoint;

  constructor(url, agent) {
    this.url = url;
    this.agent = agent;
  }

  /** Opens the stream and resolves once the server has said where to POST. */
  open() {
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest(this.url, {
        method: "GET",
        agent: false,
        headers: { Accept: "text/event-stream" },
      });
      outgoing.on("error", reject);
      outgoing.on("response", (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          reject(new Error(`GET ${this.url} answered HTTP ${response.statusCode}`));
          return;
        }
        this.#stream = response;
        response.setEncoding("utf8");
        let buffer = "";
        response.on("data", (chunk) => {
          buffer += chunk;
          for (
            let end = buffer.search(/\r?\n\r?\n/);
            end !== -1;
            end = buffer.search(/\r?\n\r?\n/)
          ) {
            const { event, data } = parseEvent(buffer.slice(0, end));
            buffer = buffer.slice(buffer.slice(end).match(/^\r?\n\r?\n/)[0].length + end);
            if (event === "endpoint") {
              this.#endpoint = new URL(data, this.url).href;
              resolve();
            } else if (event === "message" && data !== "") this.#deliver(JSON.parse(data));
          }
        });
        response.on("close", () => {
          const error = new Error("the SSE stream ended");
          for (const { reject: fail } of this.#pending.values()) fail(error);
          this.#pending.clear();
          reject(error);
        });
      });
      outgoing.end();
    });
  }

  #deliver(message) {
    const waiting = message.id === undefined ? undefined : this.#pending.get(message.id);
    if (waiting === undefined) return;
    this.#pending.delete(message.id);
    if (message.error) waiting.reject(new Error(message.error.message));
    else waiting.resolve(message.result);
  }

  request(method, params) {
    const id = this.#nextId++;
    const answered = new Promise((resolve, reject) => this.#pending.set(id, { resolve, reject }));
    const body = JSON.stringify({ jsonrpc: "2.0", id, method, params });
    return post(this.#endpoint, this.agent, body).then(
      () => answered,
      (error) => {
        this.#pending.delete(id);
        throw error;
      },
    );
  }

  async initialize() {
    await this.open();
    const result = await this.request("initialize", {
      protocolVersion: "2024-11-05",
      capabilities: {},
      clientInfo: { name: "patchbay-bench", version: "1.0.0" },
    });
    await post(
      this.#endpoint,
      this.agent,
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    );
    return result;
  }

  close() {
    this.#stream?.destroy();
  }
}
