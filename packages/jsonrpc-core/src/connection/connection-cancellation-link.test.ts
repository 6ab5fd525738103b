import { describe, expect, it } from "vitest";
import { CancelledError } from "../errors/connection-errors.js";
import { createMemoryTransportPair } from "../memory/memory-transport.js";
import type { JSONRPCId, JSONRPCNotification } from "../messages.js";
import type { RequestContext } from "./connection-types.js";
import { createConnection } from "./create-connection.js";
import type { CancellationHooks } from "./hooks.js";
import { LazyAbort } from "./incoming-requests.js";

const cancellation: CancellationHooks = {
  createNotification: (id, reason) => ({
    jsonrpc: "2.0",
    method: "test/cancelled",
    params: reason === undefined ? { id } : { id, reason },
  }),
  readRequestId: (notification: JSONRPCNotification) =>
    notification.method === "test/cancelled"
      ? (notification.params as { id: JSONRPCId }).id
      : undefined,
};

async function pair() {
  const [a, b] = createMemoryTransportPair();
  const left = createConnection(a, { cancellation });
  const right = createConnection(b, { cancellation });
  await Promise.all([left.start(), right.start()]);
  return { left, right };
}

describe("Connection: cancellation without an AbortSignal", () => {
  it("relays a client's cancel through a handler's context.cancellation to the next hop", async () => {
    const front = await pair();
    const back = await pair();
    let relayed: Promise<unknown> | undefined;
    const contexts: RequestContext[] = [];
    front.right.handle("work", (_params, context) => {
      contexts.push(context);
      const link = context.cancellation;
      if (link === undefined) throw new Error("a Connection's handlers get a cancellation");
      relayed = back.left.request("slow", {}, { cancellation: link });
      return relayed;
    });
    let started: () => void = () => {};
    const backendStarted = new Promise<void>((resolve) => (started = resolve));
    const backendCancelled = new Promise<unknown>((resolve) => {
      back.right.handle("slow", (_params, context) => {
        context.signal.addEventListener("abort", () => resolve(context.signal.reason));
        started();
        return new Promise(() => {});
      });
    });
    const controller = new AbortController();
    const call = front.left.request("work", {}, { signal: controller.signal });
    const failed = call.catch((error: unknown) => error);
    await backendStarted;
    controller.abort(new Error("user pressed stop"));
    const reason = await backendCancelled;
    expect(CancelledError.isInstance(reason)).toBe(true);
    expect((reason as Error).message).toBe("user pressed stop");
    expect(CancelledError.isInstance(await failed)).toBe(true);
    const hop = await (relayed as Promise<unknown>).catch((error: unknown) => error);
    expect(CancelledError.isInstance(hop)).toBe(true);
    // The signal, read only now, is made aborted with the same reason.
    const context = contexts[0] as RequestContext;
    expect(context.cancellation?.aborted).toBe(true);
    expect(context.signal.aborted).toBe(true);
    expect(context.signal.reason).toBe(context.cancellation?.reason);
  });

  it("refuses to send a request whose cancellation already fired", async () => {
    const { left } = await pair();
    const lazy = new LazyAbort();
    lazy.abort(new Error("gone"));
    const error = await left.request("x", {}, { cancellation: lazy }).catch((e: unknown) => e);
    expect(CancelledError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe('Request "x" was cancelled before it was sent');
  });

  it("makes the signal once, on first read, following aborts before and after", () => {
    const early = new LazyAbort();
    const heard: unknown[] = [];
    const stop = early.onAbort((reason) => heard.push(["stopped", reason]));
    early.onAbort((reason) => heard.push(reason));
    stop();
    early.abort("first");
    early.abort("second");
    expect(heard).toEqual(["first"]);
    expect(early.signal.aborted).toBe(true);
    expect(early.signal.reason).toBe("first");
    const late = new LazyAbort();
    const signal = late.signal;
    expect(late.signal).toBe(signal);
    late.abort("later");
    expect(signal.reason).toBe("later");
    expect(late.onAbort(() => heard.push("never"))).toBeTypeOf("function");
    expect(heard).toEqual(["first"]);
  });
});
