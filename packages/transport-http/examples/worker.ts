import { createEchoEndpoint } from "./web-echo-endpoint.js";

/**
 * A Workers-style module: `export default { fetch }`. Isolates do not share memory, so the endpoint
 * is stateless (no session to find on the next request) and answers in JSON. Allow the host name
 * the worker is reached by; the default allows loopback names only.
 */
const mcp = createEchoEndpoint({
  stateless: true,
  responseMode: "json",
  allowedHosts: ["localhost", "mcp.example.workers.dev"],
});

export default {
  fetch(request: Request): Promise<Response> {
    return mcp.handleRequest(request);
  },
};
