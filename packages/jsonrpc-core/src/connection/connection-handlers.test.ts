import { describe, expect, it } from "vitest";
import { deferred } from "../../test/deferred.js";
import { createConnectionPair, createRawPeer } from "../../test/raw-peer.js";
import { TimeoutError } from "../errors/connection-errors.js";
import { JSONRPCError } from "../errors/jsonrpc-error.js";
import { LocalError } from "../errors/local-error.js";
import { InternalError, MethodNotFoundError } from "../errors/standard-errors.js";
import type { JSONRPCNotification } from "../messages.js";
import type { FrameInfo } from "../transport.js";

describe("Connection: request handlers", () => {
  it("answers an unknown method with -32601", async () => {
    const { connection, peer, nextFrame } = await createRawPeer();
    void connection;
    await peer.send({ jsonrpc: "2.0", id: 0, method: "nope" });
    expect(await nextFrame()).toMatchObject({ id: 0, error: { code: -32601 } });
  });

  it("passes a thrown JSONRPCError to the peer as is", async () => {
    const { client, server } = await createConnectionPair();
    server.handle("fail", () => {
      throw new JSONRPCError(-32042, "Backend down", { backend: "github" });
    });
    const error = await client.request("fail").catch((caught: unknown) => caught);
    expect((error as JSONRPCError).toJSON()).toEqual({
      code: -32042,
      message: "Backend down",
      data: { backend: "github" },
    });
  });

  it("answers any other throw with a bare -32603 and reports it locally", async () => {
    const { connection, peer, nextFrame, errors } = await createRawPeer();
    connection.handle("boom", () => {
      throw new Error("secret path /etc/passwd");
    });
    await peer.send({ jsonrpc: "2.0", id: 1, method: "boom" });
    const response = await nextFrame();
    expect(response).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32603, message: "Internal error" },
    });
    expect(JSON.stringify(response)).not.toContain("secret");
    expect(errors).toHaveLength(1);
    expect(((errors[0] as Error).cause as Error).message).toBe("secret path /etc/passwd");
  });

  it("never sends a local error's string code as if the peer made it", async () => {
    const { client, server } = await createConnectionPair();
    server.handle("nested", () => {
      throw new TimeoutError("inner request timed out", 5);
    });
    const error = await client.request("nested").catch((caught: unknown) => caught);
    expect(InternalError.isInstance(error)).toBe(true);
    expect(LocalError.isInstance(error)).toBe(false);
  });

  it("answers a handler that returns nothing with result null", async () => {
    const { connection, peer, nextFrame } = await createRawPeer();
    connection.handle("void", () => undefined);
    await peer.send({ jsonrpc: "2.0", id: 0, method: "void" });
    expect(await nextFrame()).toEqual({ jsonrpc: "2.0", id: 0, result: null });
  });

  it("gives the handler id, method, info and a live signal", async () => {
    const { client, server } = await createConnectionPair();
    server.handle("context", (_params, context) => ({
      id: context.id,
      method: context.method,
      aborted: context.signal.aborted,
      same: context.connection === server,
    }));
    expect(await client.request("context")).toEqual({
      id: 0,
      method: "context",
      aborted: false,
      same: true,
    });
  });

  it("replaces a handler and stops answering after unsubscribe", async () => {
    const { client, server } = await createConnectionPair();
    server.handle("m", () => 1);
    const unsubscribe = server.handle("m", () => 2);
    expect(await client.request("m")).toBe(2);
    unsubscribe();
    const error = await client.request("m").catch((caught: unknown) => caught);
    expect(MethodNotFoundError.isInstance(error)).toBe(true);
  });

  it("routes methods without a handler to the fallback, and back to -32601 when cleared", async () => {
    const { client, server } = await createConnectionPair();
    server.handle("known", () => "specific");
    server.setFallbackRequestHandler((params, context) => ({ routed: context.method, params }));
    expect(await client.request("known")).toBe("specific");
    expect(await client.request("any/thing", { x: 1 })).toEqual({
      routed: "any/thing",
      params: { x: 1 },
    });
    server.setFallbackRequestHandler(undefined);
    const error = await client.request("any/thing").catch((caught: unknown) => caught);
    expect(MethodNotFoundError.isInstance(error)).toBe(true);
  });

  it("runs at most maxConcurrentHandlers at once and queues the rest in order", async () => {
    const { connection, peer, nextFrame } = await createRawPeer({ maxConcurrentHandlers: 2 });
    const started: number[] = [];
    const release = new Map<number, () => void>();
    const twoStarted = deferred();
    const threeStarted = deferred();
    connection.handle("slow", (params) => {
      const n = (params as number[])[0] as number;
      started.push(n);
      if (started.length === 2) twoStarted.resolve();
      if (started.length === 3) threeStarted.resolve();
      return new Promise<number>((resolve) => release.set(n, () => resolve(n)));
    });
    for (const n of [1, 2, 3])
      await peer.send({ jsonrpc: "2.0", id: n, method: "slow", params: [n] });
    // Frames arrive in order: once this notification is seen, request 3 has arrived too.
    const syncSeen = deferred();
    connection.onNotification(() => syncSeen.resolve());
    await peer.send({ jsonrpc: "2.0", method: "sync" });
    await twoStarted.promise;
    await syncSeen.promise;
    expect(started).toEqual([1, 2]);
    release.get(2)?.();
    expect(await nextFrame()).toEqual({ jsonrpc: "2.0", id: 2, result: 2 });
    await threeStarted.promise;
    expect(started).toEqual([1, 2, 3]);
    release.get(3)?.();
    release.get(1)?.();
    expect(await nextFrame()).toEqual({ jsonrpc: "2.0", id: 3, result: 3 });
  });
});

describe("Connection: notifications", () => {
  it("calls the method's handler and every listener, handled or not", async () => {
    const { client, server } = await createConnectionPair();
    const handled: unknown[] = [];
    const seen: string[] = [];
    const done = deferred();
    server.handleNotification("a", (params) => {
      handled.push(params);
    });
    server.onNotification((notification: JSONRPCNotification, _info: FrameInfo) => {
      seen.push(notification.method);
      if (notification.method === "b") done.resolve();
    });
    await client.notify("a", { x: 1 });
    await client.notify("b");
    await done.promise;
    expect(handled).toEqual([{ x: 1 }]);
    expect(seen).toEqual(["a", "b"]);
  });

  it("reports a notification handler failure and a schema failure, never answering", async () => {
    const { client, server, serverErrors } = await createConnectionPair();
    server.handleNotification("bad", () => {
      throw new Error("handler bug");
    });
    server.handleNotification(
      {
        method: "typed",
        params: {
          parse: () => {
            throw new Error("wrong shape");
          },
        },
      },
      () => {},
    );
    server.handle("sync", () => "ok");
    await client.notify("bad");
    await client.notify("typed", {});
    expect(await client.request("sync")).toBe("ok");
    expect(serverErrors.map((error) => (error as LocalError).code)).toEqual([
      "HANDLER_FAILED",
      "HANDLER_FAILED",
    ]);
  });
});
