import { ConnectionClosedError, JSONRPCError } from "@patchbay/jsonrpc-core";
import { createManualClock } from "@patchbay/jsonrpc-core/testing";
import type { ProtocolEra } from "@patchbay/mcp-types";
import { describe, expect, it } from "vitest";
import { createClient, UnsupportedProtocolVersionError } from "../src/index.js";
import { DISCOVER_RESULT, startFakeServer } from "./fake-servers.js";

const INFO = { name: "c", version: "2" };

describe("era detection (protocolEra: auto)", () => {
  it("speaks modern to a server that answers server/discover, without initialize", async () => {
    const fake = await startFakeServer(DISCOVER_RESULT);
    const store = new Map<string, ProtocolEra>();
    const client = createClient(INFO, {
      protocolEra: "auto",
      eraCache: { store, key: "fake" },
      elicitation: () => ({ action: "decline" }),
    });
    const result = await client.connect(fake.clientSide);
    expect(fake.received.map((request) => request.method)).toEqual(["server/discover"]);
    expect(fake.received[0]?.params._meta).toEqual({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
      "io.modelcontextprotocol/clientInfo": INFO,
    });
    expect(client.protocolEra).toBe("modern");
    expect(result).toEqual({
      protocolVersion: "2026-07-28",
      capabilities: DISCOVER_RESULT.capabilities,
      serverInfo: { name: "fake-modern", version: "9" },
      instructions: "be kind",
    });
    expect(client.serverInfo).toEqual({ name: "fake-modern", version: "9" });
    expect(store.get("fake")).toBe("modern");
    await client.close();
  });

  for (const [code, what] of [
    [-32601, "method not found"],
    [-32602, "invalid params"],
    [-32600, "an initialize-required error"],
    [-32000, "an implementation-defined error"],
  ] as const) {
    it(`falls back to initialize when server/discover gets ${what} (${code})`, async () => {
      const fake = await startFakeServer(new JSONRPCError(code, "not before initialize"));
      const store = new Map<string, ProtocolEra>();
      const client = createClient(INFO, { protocolEra: "auto", eraCache: { store, key: "s" } });
      await client.connect(fake.clientSide);
      expect(fake.received.map((request) => request.method)).toEqual([
        "server/discover",
        "initialize",
      ]);
      expect(client.protocolEra).toBe("legacy");
      expect(client.protocolVersion).toBe("2025-11-25");
      expect(store.get("s")).toBe("legacy");
      await client.close();
    });
  }

  it("falls back to initialize when server/discover gets no answer in time", async () => {
    const fake = await startFakeServer("silent");
    const clock = createManualClock();
    const client = createClient(INFO, {
      protocolEra: "auto",
      discoverTimeoutMs: 2000,
      connection: { clock },
    });
    const probed = fake.next("server/discover");
    const connected = client.connect(fake.clientSide);
    await probed;
    clock.advance(2000);
    await connected;
    expect(client.protocolEra).toBe("legacy");
    expect(fake.received.map((request) => request.method)).toEqual([
      "server/discover",
      "initialize",
    ]);
    await client.close();
  });

  it("over a channel that answers every request (HTTP), no answer in time is not a legacy server", {
    timeout: 5_000,
  }, async () => {
    const fake = await startFakeServer("silent");
    const clock = createManualClock();
    const client = createClient(INFO, {
      protocolEra: "auto",
      discoverTimeoutMs: 2000,
      requestTimeoutMs: 30_000,
      connection: { clock },
    });
    const probed = fake.next("server/discover");
    const connected = client.connect(Object.assign(fake.clientSide, { answersEveryRequest: true }));
    await probed;
    clock.advance(2000);
    clock.advance(28_000);
    await expect(connected).rejects.toThrow(/timed out|timeout/i);
    expect(fake.received.map((request) => request.method)).toEqual(["server/discover"]);
  });

  it("skips the probe when the cache already knows the server is legacy", async () => {
    const fake = await startFakeServer(DISCOVER_RESULT);
    const store = new Map<string, ProtocolEra>([["known", "legacy"]]);
    const client = createClient(INFO, { protocolEra: "auto", eraCache: { store, key: "known" } });
    await client.connect(fake.clientSide);
    expect(fake.received.map((request) => request.method)).toEqual(["initialize"]);
    await client.close();
  });

  it("does not fall back when the cache says modern: a failing discover rejects", async () => {
    const fake = await startFakeServer(new JSONRPCError(-32601, "Method not found"));
    const store = new Map<string, ProtocolEra>([["known", "modern"]]);
    const client = createClient(INFO, { protocolEra: "auto", eraCache: { store, key: "known" } });
    await expect(client.connect(fake.clientSide)).rejects.toMatchObject({ code: -32601 });
    expect(fake.received.map((request) => request.method)).toEqual(["server/discover"]);
  });

  it("rejects a modern error other than -32022 instead of falling back", async () => {
    const fake = await startFakeServer(new JSONRPCError(-32021, "missing capability"));
    const client = createClient(INFO, { protocolEra: "auto" });
    await expect(client.connect(fake.clientSide)).rejects.toMatchObject({ code: -32021 });
    expect(fake.received.map((request) => request.method)).toEqual(["server/discover"]);
  });

  it("rethrows a failure that is no answer at all (the connection closed)", async () => {
    const fake = await startFakeServer("silent");
    const client = createClient(INFO, { protocolEra: "auto" });
    const probed = fake.next("server/discover");
    const connected = client.connect(fake.clientSide).catch((error: unknown) => error);
    await probed;
    await fake.server.close();
    expect(ConnectionClosedError.isInstance(await connected)).toBe(true);
  });
});

describe("forced eras", () => {
  it("legacy (the default) sends initialize first, as before", async () => {
    const fake = await startFakeServer(DISCOVER_RESULT);
    const client = createClient(INFO);
    await client.connect(fake.clientSide);
    expect(fake.received.map((request) => request.method)).toEqual(["initialize"]);
    expect(client.protocolEra).toBe("legacy");
    await client.close();
  });

  it("modern does not fall back: a legacy answer rejects connect", async () => {
    const fake = await startFakeServer(new JSONRPCError(-32601, "Method not found"));
    const client = createClient(INFO, { protocolEra: "modern" });
    await expect(client.connect(fake.clientSide)).rejects.toMatchObject({ code: -32601 });
    expect(fake.received.map((request) => request.method)).toEqual(["server/discover"]);
  });

  it("modern refuses a server whose -32022 names no revision this client speaks", async () => {
    const fake = await startFakeServer(
      new JSONRPCError(-32022, "Unsupported protocol version", {
        supported: ["2099-01-01"],
        requested: "2026-07-28",
      }),
    );
    const client = createClient(INFO, { protocolEra: "modern" });
    const error = await client.connect(fake.clientSide).catch((caught: unknown) => caught);
    expect(UnsupportedProtocolVersionError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain("2099-01-01");
  });

  it("asks once more when -32022 refuses a revision it names as supported", async () => {
    const fake = await startFakeServer(DISCOVER_RESULT);
    let refused = false;
    fake.handle("server/discover", () => {
      if (refused) return DISCOVER_RESULT;
      refused = true;
      throw new JSONRPCError(-32022, "Unsupported protocol version", {
        supported: ["2026-07-28"],
        requested: "2026-07-28",
      });
    });
    const client = createClient(INFO, { protocolEra: "modern" });
    await client.connect(fake.clientSide);
    expect(fake.received.map((request) => request.method)).toEqual([
      "server/discover",
      "server/discover",
    ]);
    expect(client.protocolVersion).toBe("2026-07-28");
    await client.close();
  });

  it("gives up after a second -32022 for the same revision", async () => {
    const fake = await startFakeServer(
      new JSONRPCError(-32022, "Unsupported protocol version", {
        supported: ["2026-07-28"],
        requested: "2026-07-28",
      }),
    );
    const client = createClient(INFO, { protocolEra: "modern" });
    const error = await client.connect(fake.clientSide).catch((caught: unknown) => caught);
    expect(UnsupportedProtocolVersionError.isInstance(error)).toBe(true);
    expect(fake.received.map((request) => request.method)).toEqual([
      "server/discover",
      "server/discover",
    ]);
  });

  it("auto falls back to initialize when -32022 names only legacy revisions", async () => {
    const fake = await startFakeServer(
      new JSONRPCError(-32022, "Unsupported protocol version", {
        supported: ["2025-11-25"],
        requested: "2026-07-28",
      }),
    );
    const client = createClient(INFO, { protocolEra: "auto" });
    await client.connect(fake.clientSide);
    expect(client.protocolEra).toBe("legacy");
    await client.close();
  });
});
