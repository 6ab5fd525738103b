import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createConnectionPair, createRawPeer } from "../../test/raw-peer.js";
import { ResultValidationError } from "../errors/connection-errors.js";
import type { JSONRPCError } from "../errors/jsonrpc-error.js";
import { InvalidParamsError, MethodNotFoundError } from "../errors/standard-errors.js";
import { TransportError } from "../errors/transport-errors.js";
import type { Frame, JSONRPCRequest } from "../messages.js";
import type { Transport } from "../transport.js";
import { createConnection } from "./create-connection.js";

describe("Connection: requests and responses", () => {
  it("numbers requests from 0 and resolves with the peer's result", async () => {
    const { connection, peer, nextFrame } = await createRawPeer();
    const result = connection.request("echo", { a: 1 });
    const request = (await nextFrame()) as JSONRPCRequest;
    expect(request).toEqual({ jsonrpc: "2.0", id: 0, method: "echo", params: { a: 1 } });
    await peer.send({ jsonrpc: "2.0", id: 0, result: { ok: true } });
    expect(await result).toEqual({ ok: true });
  });

  it("omits params when none are given", async () => {
    const { connection, nextFrame } = await createRawPeer();
    void connection.request("ping");
    expect(await nextFrame()).toEqual({ jsonrpc: "2.0", id: 0, method: "ping" });
  });

  it("answers a request whose id is the empty string with that id", async () => {
    const { connection, peer, nextFrame } = await createRawPeer();
    connection.handle("ping", () => ({}));
    await peer.send({ jsonrpc: "2.0", id: "", method: "ping" });
    expect(await nextFrame()).toEqual({ jsonrpc: "2.0", id: "", result: {} });
  });

  it("rejects with the typed peer error", async () => {
    const { connection, peer, nextFrame } = await createRawPeer();
    const result = connection.request("missing");
    await nextFrame();
    await peer.send({ jsonrpc: "2.0", id: 0, error: { code: -32601, message: "nope", data: 1 } });
    const error = await result.catch((caught: unknown) => caught);
    expect(MethodNotFoundError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: -32601, message: "nope", data: 1 });
  });

  it("sends a notification without an id", async () => {
    const { connection, nextFrame } = await createRawPeer();
    await connection.notify("note", [1, 2]);
    expect(await nextFrame()).toEqual({ jsonrpc: "2.0", method: "note", params: [1, 2] });
  });

  it("rejects with TransportError when the transport cannot send", async () => {
    const frames: Frame[] = [];
    const failing: Transport = {
      start: async () => {},
      close: async () => {},
      send: async (frame) => {
        frames.push(frame);
        throw new Error("pipe broken");
      },
      onFrame: () => () => {},
      onError: () => () => {},
      onClose: () => () => {},
    };
    const connection = createConnection(failing);
    const error = await connection.request("x").catch((caught: unknown) => caught);
    expect(TransportError.isInstance(error)).toBe(true);
    expect((error as TransportError).cause).toEqual(new Error("pipe broken"));
    const notifyError = await connection.notify("y").catch((caught: unknown) => caught);
    expect(TransportError.isInstance(notifyError)).toBe(true);
  });
});

it("rejects (and does not throw) when the transport's send throws synchronously", async () => {
  const throwing: Transport = {
    start: async () => {},
    close: async () => {},
    send: () => {
      throw new Error("not a promise");
    },
    onFrame: () => () => {},
    onError: () => () => {},
    onClose: () => () => {},
  };
  const connection = createConnection(throwing, { defaultTimeoutMs: 0 });
  const error = await connection.request("x").catch((caught: unknown) => caught);
  expect(TransportError.isInstance(error)).toBe(true);
});

describe("Connection: descriptors", () => {
  const add = {
    method: "math/add",
    params: z.object({ a: z.number(), b: z.number() }),
    result: z.object({ sum: z.number() }),
  };

  it("types and checks both ends of a request", async () => {
    const { client, server } = await createConnectionPair();
    server.handle(add, ({ a, b }) => ({ sum: a + b }));
    const { sum } = await client.request(add, { a: 2, b: 3 });
    expect(sum).toBe(5);
  });

  it("answers params that fail the schema with -32602 and the issues", async () => {
    const { client, server } = await createConnectionPair();
    server.handle(add, ({ a, b }) => ({ sum: a + b }));
    const error = await client
      .request("math/add", { a: "2", b: 3 })
      .catch((caught: unknown) => caught);
    expect(InvalidParamsError.isInstance(error)).toBe(true);
    const data = (error as JSONRPCError).data as { issues: { path: string[] }[] };
    expect(data.issues[0]?.path).toEqual(["a"]);
  });

  it("rejects with ResultValidationError when the peer's result fails the schema", async () => {
    const { client, server } = await createConnectionPair();
    server.handle("math/add", () => ({ sum: "five" }));
    const error = await client.request(add, { a: 2, b: 3 }).catch((caught: unknown) => caught);
    expect(ResultValidationError.isInstance(error)).toBe(true);
    expect((error as ResultValidationError).cause).toBeDefined();
  });

  it("accepts any object with a parse method as a schema", async () => {
    const { client, server } = await createConnectionPair();
    const upper = {
      method: "upper",
      params: { parse: (value: unknown) => String((value as { text: unknown }).text) },
    };
    server.handle(upper, (text) => text.toUpperCase());
    expect(await client.request("upper", { text: "hi" })).toBe("HI");
  });
});
