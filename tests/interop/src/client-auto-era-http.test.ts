import { createClient } from "@patchbay/client";
import { createManualClock } from "@patchbay/jsonrpc-core/testing";
import { StreamableHttpClientTransport } from "@patchbay/transport-http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleBackendBin } from "./sample-backend-bin.js";
import { type StartedServer, startServer } from "./start-server.js";

let modernOnly: StartedServer;

beforeAll(async () => {
  modernOnly = await startServer(sampleBackendBin, [
    "--transport",
    "http",
    "--port",
    "0",
    "--protocol-versions",
    "2026-07-28",
  ]);
}, 15_000);

afterAll(async () => {
  await modernOnly?.stop();
});

describe('@patchbay/client with protocolEra "auto" over Streamable HTTP, to a modern-only server', () => {
  it("waits for a slow server/discover answer instead of falling back to initialize", {
    timeout: 10_000,
  }, async () => {
    const clock = createManualClock();
    const sent: { method: string | null; protocolVersion: string | null }[] = [];
    // The first answer comes late (a cold start, a sign-in under way): its POST waits until the
    // client's clock has passed discoverTimeoutMs.
    const slowFirstAnswer = async (input: string | URL, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      sent.push({
        method: headers.get("mcp-method"),
        protocolVersion: headers.get("mcp-protocol-version"),
      });
      if (sent.length === 1) clock.advance(2_000);
      return await fetch(input, init);
    };
    const client = createClient(
      { name: "auto-era-test", version: "1.0.0" },
      { protocolEra: "auto", discoverTimeoutMs: 1_000, connection: { clock } },
    );
    try {
      await client.connect(
        new StreamableHttpClientTransport({ url: modernOnly.url, fetch: slowFirstAnswer }),
      );
      expect(client.protocolEra).toBe("modern");
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("echo");
      // No initialize (no Mcp-Method, no version header) ever went out.
      expect(sent).toEqual([
        { method: "server/discover", protocolVersion: "2026-07-28" },
        { method: "tools/list", protocolVersion: "2026-07-28" },
      ]);
    } finally {
      await client.close();
    }
  });
});
