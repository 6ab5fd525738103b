import { describeServerContract } from "@patchbay/contract-tests/server";
import {
  createWebStreamableHttpHandler,
  StreamableHttpClientTransport,
} from "@patchbay/transport-http";
import { afterAll } from "vitest";
import { createSampleServer } from "../src/index.js";

// The same server suite as http-contract.test.ts, through the web-standard handler of
// @patchbay/transport-http: the client's fetch calls handleRequest directly, with no socket.
const server = createSampleServer({ pageSize: 4 });
const mcp = createWebStreamableHttpHandler({
  modern: server.modern,
  onSession: async (transport) => {
    await server.connect(transport);
  },
});
afterAll(async () => {
  await mcp.close();
  await server.close();
});

describeServerContract({
  name: "sample backend over Streamable HTTP (web Request/Response handler)",
  async connect() {
    const transport = new StreamableHttpClientTransport({
      url: "http://localhost/mcp",
      fetch: (input, init) => mcp.handleRequest(new Request(input, init)),
    });
    return { transport, dispose: () => transport.close() };
  },
  capabilities: {
    requestsBeforeInitialize: {
      unsupported: "Streamable HTTP answers a request without a session with HTTP 400 itself",
    },
  },
});
