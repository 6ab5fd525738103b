import type { FrameInfo } from "@patchbay/jsonrpc-core";
import { MCP_ERROR_CODES } from "@patchbay/mcp-types";
import { afterEach, describe, expect, it } from "vitest";
import { createRouter, type Router } from "../src/router/create-router.js";
import { gatedBackend, watchedClock } from "./gated-backend.js";
import { configOf, createManualClock } from "./harness.js";

let router: Router | undefined;
afterEach(async () => {
  await router?.close();
  router = undefined;
});

/** A backend serving `lookup`, whose `region` argument is also sent as the `Mcp-Param-Region` header. */
const regionsBackend = () =>
  gatedBackend((server) => {
    server.registerTool(
      "lookup",
      {
        inputSchema: {
          type: "object",
          properties: { region: { type: "string", "x-mcp-header": "Region" } },
        },
      },
      async (args) => ({ content: [{ type: "text", text: JSON.stringify(args) }] }),
    );
  });

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "modern-test", version: "1.0.0" },
};

/** How a request with these HTTP headers reaches the front (see `requestHeaderReader`). */
const arrivedWith = (headers: Record<string, string>): FrameInfo =>
  ({ extra: { requestInfo: { headers } } }) as FrameInfo;

describe("router: the modern front's Mcp-Param check for a tool whose backend is coming up", () => {
  it("waits for the backend's listing and refuses a header that contradicts the body (-32020)", async () => {
    const manual = createManualClock();
    const backend = regionsBackend();
    let restartDue!: () => void;
    const scheduled = new Promise<void>((resolve) => {
      restartDue = resolve;
    });
    router = createRouter({
      config: configOf({
        mcpServers: { regions: { command: "x", namespace: "", restart: { initialDelayMs: 250 } } },
      }),
      clock: watchedClock(manual, 250, () => restartDue()),
      connect: () => backend.connect(),
    });
    void router.start();
    await backend.asked();
    backend.fail();
    await scheduled;
    manual.advance(250);
    await backend.asked();
    // The retry is underway: `lookup` is listed nowhere yet.
    const endpoint = router.modern();
    const context = (info?: FrameInfo) => ({
      signal: new AbortController().signal,
      notify: () => {},
      ...(info === undefined ? {} : { info }),
    });
    const call = endpoint.handle(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "lookup", arguments: { region: "eu" }, _meta: META },
      },
      context(arrivedWith({ "mcp-param-region": "us" })),
    );
    // Answered without waiting for the backend: by then the call above is at its header check.
    await endpoint.handle(
      { jsonrpc: "2.0", id: 2, method: "server/discover", params: { _meta: META } },
      context(),
    );
    backend.open();
    expect(await call).toMatchObject({
      id: 1,
      error: { code: MCP_ERROR_CODES.HeaderMismatch },
    });
  });
});
