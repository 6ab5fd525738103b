import {
  type Connection,
  createConnection,
  createMemoryTransportPair,
  TimeoutError,
} from "@patchbay/jsonrpc-core";
import { createManualClock } from "@patchbay/jsonrpc-core/testing";
import { describe, expect, it } from "vitest";
import { createClient, NotConnectedError, UnsupportedProtocolVersionError } from "../src/index.js";

/** A hand-written server on a bare connection that answers initialize with `protocolVersion`. */
async function startFakeServer(protocolVersion: string) {
  const [clientSide, serverSide] = createMemoryTransportPair();
  const server: Connection = createConnection(serverSide);
  const received: { method: string; params: unknown }[] = [];
  server.handle("initialize", (params) => {
    received.push({ method: "initialize", params });
    return { protocolVersion, capabilities: {}, serverInfo: { name: "fake", version: "1" } };
  });
  const initialized = new Promise<void>((resolve) =>
    server.handleNotification("notifications/initialized", () => {
      received.push({ method: "notifications/initialized", params: undefined });
      resolve();
    }),
  );
  await server.start();
  return { clientSide, server, received, initialized };
}

describe("client.connect", () => {
  it("sends initialize with its info and capabilities, then notifications/initialized", async () => {
    const fake = await startFakeServer("2025-06-18");
    const client = createClient({ name: "c", version: "2" }, { roots: () => ({ roots: [] }) });
    const result = await client.connect(fake.clientSide);
    await fake.initialized;
    expect(fake.received).toEqual([
      {
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: { roots: { listChanged: true } },
          clientInfo: { name: "c", version: "2" },
        },
      },
      { method: "notifications/initialized", params: undefined },
    ]);
    expect(result.protocolVersion).toBe("2025-06-18");
    expect(client.protocolVersion).toBe("2025-06-18");
    await client.close();
  });

  it("disconnects from a server that answers a version it does not speak", async () => {
    const fake = await startFakeServer("1999-01-01");
    const client = createClient({ name: "c", version: "2" });
    const closed = new Promise<void>((resolve) => client.onClose(resolve));
    const error = await client.connect(fake.clientSide).catch((caught: unknown) => caught);
    expect(UnsupportedProtocolVersionError.isInstance(error)).toBe(true);
    await closed;
    expect(fake.server.closed).toBe(true);
  });

  it("refuses requests before connect with NotConnectedError", async () => {
    const client = createClient({ name: "c", version: "2" });
    const error = await client.listTools().catch((caught: unknown) => caught);
    expect(NotConnectedError.isInstance(error)).toBe(true);
    expect((error as NotConnectedError).code).toBe("NOT_CONNECTED");
  });

  it("refuses a second connect", async () => {
    const fake = await startFakeServer("2025-11-25");
    const client = createClient({ name: "c", version: "2" });
    await client.connect(fake.clientSide);
    await expect(client.connect(fake.clientSide)).rejects.toThrow(/already connected/);
    await client.close();
  });

  it("asks for the revision given in the options", async () => {
    const fake = await startFakeServer("2024-11-05");
    const client = createClient({ name: "c", version: "2" }, { protocolVersion: "2024-11-05" });
    await client.connect(fake.clientSide);
    expect(fake.received[0]?.params).toMatchObject({ protocolVersion: "2024-11-05" });
    await client.close();
  });

  it("answers ping from the server", async () => {
    const fake = await startFakeServer("2025-11-25");
    const client = createClient({ name: "c", version: "2" });
    await client.connect(fake.clientSide);
    await expect(fake.server.request("ping")).resolves.toEqual({});
    await client.close();
  });

  it("refuses notifyRootsListChanged without a roots handler", async () => {
    const fake = await startFakeServer("2025-11-25");
    const client = createClient({ name: "c", version: "2" });
    await client.connect(fake.clientSide);
    await expect(client.notifyRootsListChanged()).rejects.toThrow(/roots handler/);
    await client.close();
  });
});

describe("client.connect failures", () => {
  it("closes the connection when the server refuses initialize", async () => {
    const [clientSide, serverSide] = createMemoryTransportPair();
    const server = createConnection(serverSide);
    server.handle("initialize", () => {
      throw new Error("no thanks");
    });
    await server.start();
    const client = createClient({ name: "c", version: "2" });
    const closed = new Promise<void>((resolve) => client.onClose(resolve));
    const error = await client.connect(clientSide).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: -32603 });
    await closed;
    expect(client.connection?.closed).toBe(true);
  });
});

describe("client request timeouts", () => {
  it("gives up after requestTimeoutMs with a TimeoutError", async () => {
    const fake = await startFakeServer("2025-11-25");
    fake.server.handle("tools/list", () => new Promise(() => {}));
    const clock = createManualClock();
    const client = createClient(
      { name: "c", version: "2" },
      { requestTimeoutMs: 50, connection: { clock } },
    );
    await client.connect(fake.clientSide);
    const outcome = client.listTools().catch((error: unknown) => error);
    clock.advance(49);
    clock.advance(1);
    const error = await outcome;
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect((error as TimeoutError).timeoutMs).toBe(50);
    await client.close();
  });
});
