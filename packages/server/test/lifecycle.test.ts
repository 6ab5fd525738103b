import { createMemoryTransportPair, type Transport } from "@patchbay/jsonrpc-core";
import { afterEach, describe, expect, it } from "vitest";
import { createServer, type Server } from "../src/index.js";
import { connectClient, connectRaw, nextEvent, rejectionOf } from "./harness.js";

let server: Server;
afterEach(async () => {
  await server?.close();
});

function initializeParams(protocolVersion: string) {
  return { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } };
}

describe("session lifecycle", () => {
  it("answers initialize with serverInfo, instructions and derived capabilities", async () => {
    server = createServer({ name: "s", version: "1.2.3", title: "S", instructions: "Be nice" });
    server.registerTool("t", {}, () => ({ content: [] }));
    const { client } = await connectClient(server);
    expect(client.serverInfo).toEqual({ name: "s", version: "1.2.3", title: "S" });
    expect(client.instructions).toBe("Be nice");
    expect(client.serverCapabilities).toEqual({ logging: {}, tools: { listChanged: true } });
  });

  it.each(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"])(
    "echoes the supported version %s",
    async (version) => {
      server = createServer({ name: "s", version: "1" });
      const { connection } = await connectRaw(server);
      const result = (await connection.request("initialize", initializeParams(version))) as {
        protocolVersion: string;
      };
      expect(result.protocolVersion).toBe(version);
    },
  );

  it("answers an unknown version with its latest instead of an error", async () => {
    server = createServer({ name: "s", version: "1" });
    const { connection } = await connectRaw(server);
    const result = (await connection.request("initialize", initializeParams("1999-01-01"))) as {
      protocolVersion: string;
    };
    expect(result.protocolVersion).toBe("2025-11-25");
  });

  it("refuses requests before initialize with a clear error", async () => {
    server = createServer({ name: "s", version: "1" });
    const { connection } = await connectRaw(server);
    const error = await rejectionOf(connection.request("tools/list", {}));
    expect(error.code).toBe(-32600);
    expect(error.message).toMatch(/not initialized.*initialize before tools\/list/);
  });

  it("answers ping before initialize", async () => {
    server = createServer({ name: "s", version: "1" });
    const { connection } = await connectRaw(server);
    await expect(connection.request("ping")).resolves.toEqual({});
  });

  it("refuses a second initialize", async () => {
    server = createServer({ name: "s", version: "1" });
    const { connection } = await connectRaw(server);
    await connection.request("initialize", initializeParams("2025-11-25"));
    const error = await rejectionOf(
      connection.request("initialize", initializeParams("2025-11-25")),
    );
    expect(error.code).toBe(-32600);
  });

  it("refuses initialize without clientInfo with -32602", async () => {
    server = createServer({ name: "s", version: "1" });
    const { connection } = await connectRaw(server);
    const error = await rejectionOf(
      connection.request("initialize", { protocolVersion: "2025-11-25" }),
    );
    expect(error.code).toBe(-32602);
  });

  it.each(["notifications/initialized", "initialized"])(
    "marks the session initialized on %s",
    async (method) => {
      server = createServer({ name: "s", version: "1" });
      const { connection, session } = await connectRaw(server);
      await connection.request("initialize", initializeParams("2025-11-25"));
      expect(session.initialized).toBe(false);
      const initialized = nextEvent<void>((listener) => session.onInitialized(listener));
      await connection.notify(method);
      await initialized;
      expect(session.initialized).toBe(true);
      expect(session.protocolVersion).toBe("2025-11-25");
      expect(session.clientInfo).toEqual({ name: "raw", version: "1" });
    },
  );

  it("serves requests after the initialize response even before initialized arrives", async () => {
    server = createServer({ name: "s", version: "1" });
    const { connection } = await connectRaw(server);
    await connection.request("initialize", initializeParams("2025-11-25"));
    await expect(connection.request("tools/list", {})).resolves.toEqual({ tools: [] });
  });

  it("keeps one session per connection and forgets it when the connection closes", async () => {
    server = createServer({ name: "s", version: "1" });
    const first = await connectClient(server);
    const second = await connectClient(server);
    expect(server.sessions).toHaveLength(2);
    expect(first.session).not.toBe(second.session);
    const closed = nextEvent<void>((listener) => first.session.onClose(listener));
    await first.client.close();
    await closed;
    expect(server.sessions).toEqual([second.session]);
  });

  it("answers ping from the client", async () => {
    server = createServer({ name: "s", version: "1" });
    const { client } = await connectClient(server);
    await expect(client.ping()).resolves.toBeUndefined();
  });
});

describe("server-wide helpers", () => {
  it("forgets a session whose transport fails to start", async () => {
    server = createServer({ name: "s", version: "1" });
    const [, serverSide] = createMemoryTransportPair();
    const failing: Transport = {
      start: () => Promise.reject(new Error("no socket")),
      send: (frame) => serverSide.send(frame),
      close: () => serverSide.close(),
      onFrame: (listener) => serverSide.onFrame(listener),
      onError: (listener) => serverSide.onError(listener),
      onClose: (listener) => serverSide.onClose(listener),
    };
    await expect(server.connect(failing)).rejects.toThrow("no socket");
    expect(server.sessions).toEqual([]);
  });

  it("tells onSession listeners about each new session", async () => {
    server = createServer({ name: "s", version: "1" });
    const seen: string[] = [];
    const unsubscribe = server.onSession((session) => seen.push(session.id));
    const { session } = await connectClient(server);
    unsubscribe();
    await connectClient(server);
    expect(seen).toEqual([session.id]);
  });

  it("logs to every session through server.log, honouring each level", async () => {
    server = createServer({ name: "s", version: "1" });
    const first = await connectClient(server);
    const second = await connectClient(server);
    await second.client.setLoggingLevel("error");
    const firstSeen = nextEvent<{ data: unknown }>((listener) =>
      first.client.on("notifications/message", listener),
    );
    const secondSeen: unknown[] = [];
    second.client.on("notifications/message", (params) => secondSeen.push(params));
    await server.log("info", "hello everyone");
    expect((await firstSeen).data).toBe("hello everyone");
    await second.client.ping();
    expect(secondSeen).toEqual([]);
  });

  it("publishes every serverInfo field it was given", async () => {
    server = createServer({
      name: "s",
      version: "1",
      title: "S",
      description: "A server",
      websiteUrl: "https://example.com",
      icons: [{ src: "https://example.com/icon.png" }],
    });
    const { client } = await connectClient(server);
    expect(client.serverInfo).toEqual({
      name: "s",
      version: "1",
      title: "S",
      description: "A server",
      websiteUrl: "https://example.com",
      icons: [{ src: "https://example.com/icon.png" }],
    });
  });
});
