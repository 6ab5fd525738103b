import {
  type ConnectionOptions,
  createConnection,
  createMemoryTransportPair,
} from "@patchbay/jsonrpc-core";
import { describe, expect, expectTypeOf, it } from "vitest";
import { createMcpConnectionHooks, v2025_11_25 } from "../src/index.js";

describe("MCP hooks for jsonrpc-core connections", () => {
  it("fit jsonrpc-core's ConnectionOptions", () => {
    expectTypeOf(createMcpConnectionHooks()).toExtend<ConnectionOptions>();
  });

  it("are one frozen object for every connection (they hold no state)", () => {
    const hooks = createMcpConnectionHooks();
    expect(createMcpConnectionHooks()).toBe(hooks);
    expect(Object.isFrozen(hooks)).toBe(true);
    expect(Object.isFrozen(hooks.cancellation)).toBe(true);
    expect(Object.isFrozen(hooks.progress)).toBe(true);
  });

  it("build and read notifications/cancelled", () => {
    const { cancellation } = createMcpConnectionHooks();
    const notification = cancellation.createNotification(0, "timeout");
    expect(notification).toEqual({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 0, reason: "timeout" },
    });
    expect(v2025_11_25.CancelledNotificationSchema.safeParse(notification).success).toBe(true);
    expect(cancellation.readRequestId(notification)).toBe(0);
    expect(cancellation.createNotification("a").params).toEqual({ requestId: "a" });
    expect(
      cancellation.readRequestId({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { requestId: 1 },
      }),
    ).toBeUndefined();
  });

  it("attach the progress token without touching the caller's params", () => {
    const { progress } = createMcpConnectionHooks();
    const params = { name: "t", _meta: { traceparent: "x" } };
    expect(progress.attachToken(params, 7)).toEqual({
      name: "t",
      _meta: { traceparent: "x", progressToken: 7 },
    });
    expect(params._meta).toEqual({ traceparent: "x" });
    expect(progress.attachToken(undefined, "p")).toEqual({ _meta: { progressToken: "p" } });
    expect(
      progress.readToken({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: 7, progress: 1 },
      }),
    ).toBe(7);
  });

  it("cancel a handler and deliver progress over a real connection pair", async () => {
    const [clientTransport, serverTransport] = createMemoryTransportPair();
    const client = createConnection(clientTransport, createMcpConnectionHooks());
    const server = createConnection(serverTransport, createMcpConnectionHooks());
    const aborted = new Promise<string>((resolve) => {
      server.handle(v2025_11_25.methods["tools/call"], async (params, context) => {
        // Listen first: the cancel may arrive before `notify` below resolves.
        const cancelled = new Promise<never>((_, reject) => {
          context.signal.addEventListener("abort", () => {
            resolve("aborted");
            reject(new Error("cancelled"));
          });
        });
        const token = params._meta?.progressToken;
        if (token !== undefined) {
          await context.connection.notify(v2025_11_25.methods["notifications/progress"], {
            progressToken: token,
            progress: 1,
            total: 2,
          });
        }
        return cancelled;
      });
    });
    await Promise.all([client.start(), server.start()]);
    const controller = new AbortController();
    const call = client
      .request(
        v2025_11_25.methods["tools/call"],
        { name: "slow" },
        {
          signal: controller.signal,
          onProgress: () => controller.abort("user"),
        },
      )
      .catch((error: unknown) => error);
    expect(await aborted).toBe("aborted");
    expect(await call).toBeInstanceOf(Error);
    await Promise.all([client.close(), server.close()]);
  });
});
