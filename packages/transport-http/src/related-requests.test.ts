import { createConnection, type JSONRPCId } from "@patchbay/jsonrpc-core";
import { afterEach, describe, expect, it } from "vitest";
import { StreamableHttpClientTransport } from "./streamable-http-client-transport.js";
import { startTestServer, type TestServer } from "./test-support/http-fixtures.js";

let server: TestServer | undefined;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.allSettled(cleanups.splice(0).map((cleanup) => cleanup()));
  await server?.close();
  server = undefined;
});

describe("Streamable HTTP: related requests", () => {
  it("sends a request related to a client request on that request's POST stream, and the client reports the relation", async () => {
    server = await startTestServer({
      onSession: async (transport) => {
        const connection = createConnection(transport);
        connection.handle("initialize", () => ({
          protocolVersion: "2025-11-25",
          capabilities: {},
          serverInfo: { name: "t", version: "1" },
        }));
        // Each "work" asks the client something on behalf of the request being handled.
        connection.handle("work", async (params, context) => {
          const asked = await connection.request("ask", params ?? {}, {
            relatedRequestId: context.id,
          });
          return { asked };
        });
        await connection.start();
      },
    });
    const transport = new StreamableHttpClientTransport({
      url: server.url,
      standaloneStream: false,
    });
    const client = createConnection(transport);
    cleanups.push(() => client.close());
    const relations: [string, JSONRPCId | undefined][] = [];
    client.handle("ask", (params, context) => {
      const who = (params as { who: string }).who;
      relations.push([who, context.info.relatedRequestId]);
      return who;
    });
    await client.start();
    await client.request("initialize", { protocolVersion: "2025-11-25" });
    const ids: Record<string, JSONRPCId> = {};
    const [alice, bob] = await Promise.all([
      client.request("work", { who: "alice" }, { onRequestId: (id) => (ids.alice = id) }),
      client.request("work", { who: "bob" }, { onRequestId: (id) => (ids.bob = id) }),
    ]);
    expect(alice).toEqual({ asked: "alice" });
    expect(bob).toEqual({ asked: "bob" });
    // Without the relation the server would have had no stream for "ask" (standalone is off).
    expect(new Map(relations)).toEqual(
      new Map([
        ["alice", ids.alice],
        ["bob", ids.bob],
      ]),
    );
  });
});
