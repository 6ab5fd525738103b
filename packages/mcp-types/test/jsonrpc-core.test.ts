import {
  type Connection,
  createConnection,
  createMemoryTransportPair,
  JSONRPCError,
} from "@patchbay/jsonrpc-core";
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import {
  initializedAliasNotification,
  toShallowDescriptor,
  v2025_11_25,
  v2026_07_28,
} from "../src/index.js";

const { methods } = v2025_11_25;
const open: Connection[] = [];

async function connectedPair(): Promise<[client: Connection, server: Connection]> {
  const [clientTransport, serverTransport] = createMemoryTransportPair();
  const client = createConnection(clientTransport);
  const server = createConnection(serverTransport);
  open.push(client, server);
  await Promise.all([client.start(), server.start()]);
  return [client, server];
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

describe("descriptors work directly with @patchbay/jsonrpc-core", () => {
  it("types and validates a tools/call both ways", async () => {
    const [client, server] = await connectedPair();
    server.handle(methods["tools/call"], (params) => {
      expectTypeOf(params.name).toEqualTypeOf<string>();
      return { content: [{ type: "text" as const, text: `called ${params.name}` }] };
    });
    const result = await client.request(methods["tools/call"], {
      name: "github__create_issue",
      arguments: { title: "Bug" },
    });
    expectTypeOf(result).toEqualTypeOf<v2025_11_25.CallToolResult | v2025_11_25.CreateTaskResult>();
    expect(result).toEqual({ content: [{ type: "text", text: "called github__create_issue" }] });
  });

  it("answers -32602 with the issue path when params do not match the descriptor", async () => {
    const [client, server] = await connectedPair();
    server.handle(methods["tools/call"], () => ({ content: [] }));
    const failure = await client
      .request("tools/call", { arguments: {} })
      .catch((error: unknown) => error);
    expect(JSONRPCError.isInstance(failure)).toBe(true);
    const error = failure as JSONRPCError;
    expect(error.code).toBe(-32602);
    expect(JSON.stringify(error.data)).toContain('"path":["name"]');
  });

  it("rejects a result that does not match the descriptor", async () => {
    const [client, server] = await connectedPair();
    server.handle("tools/list", () => ({ tools: [{ name: "t" }] }));
    await expect(client.request(methods["tools/list"])).rejects.toThrow();
  });

  it("accepts absent params for methods whose params are optional", async () => {
    const [client, server] = await connectedPair();
    server.handle(methods.ping, () => ({}));
    await expect(client.request(methods.ping)).resolves.toEqual({});
  });

  it("routes the bare initialized notification to the same handler", async () => {
    const [client, server] = await connectedPair();
    const received: string[] = [];
    const done = new Promise<void>((resolve) => {
      server.handleNotification(methods["notifications/initialized"], () => {
        received.push("notifications/initialized");
      });
      server.handleNotification(initializedAliasNotification, () => {
        received.push("initialized");
        resolve();
      });
    });
    await client.notify("initialized");
    await done;
    expect(received).toEqual(["initialized"]);
  });

  it("lets a gateway forward with shallow descriptors (nested content is not checked)", async () => {
    const [client, server] = await connectedPair();
    server.handle("tools/call", () => ({ content: [{ type: "future-kind", payload: 1 }] }));
    const shallow = toShallowDescriptor(methods["tools/call"]);
    const result = await client.request(shallow, { name: "t" });
    expect(result).toEqual({ content: [{ type: "future-kind", payload: 1 }] });
    await expect(client.request(methods["tools/call"], { name: "t" })).rejects.toThrow();
  });

  it("checks modern requests for the required _meta", async () => {
    const [client, server] = await connectedPair();
    server.handle(v2026_07_28.methods["tools/list"], () => ({
      resultType: "complete",
      tools: [],
      ttlMs: 0,
      cacheScope: "public" as const,
    }));
    const failure = await client.request("tools/list", {}).catch((error: unknown) => error);
    expect((failure as JSONRPCError).code).toBe(-32602);
  });
});
