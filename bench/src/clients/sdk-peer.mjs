// The official SDK's client (what users of the SDK see), behind the same `request` shape as the
// lean clients: over a child's stdio or over Streamable HTTP. Its own cost (validation, zod) is part
// of what it measures.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export class SdkPeer {
  #client = new Client({ name: "patchbay-bench-sdk", version: "1.0.0" });
  #transport;

  /** `{ command, args }` for a child over stdio, or `{ url }` for Streamable HTTP. */
  constructor(target) {
    this.#transport =
      target.url === undefined
        ? new StdioClientTransport({ command: target.command, args: target.args, stderr: "ignore" })
        : new StreamableHTTPClientTransport(new URL(target.url));
  }

  async initialize() {
    await this.#client.connect(this.#transport);
  }

  request(method, params) {
    if (method !== "tools/call") throw new Error(`SdkPeer only calls tools, not ${method}`);
    return this.#client.callTool(params);
  }

  async close() {
    await this.#client.close();
  }
}
