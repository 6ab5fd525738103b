import type * as sdkV1 from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, expectTypeOf, it } from "vitest";
import { v2024_11_05, v2025_11_25, v2026_07_28 } from "../src/index.js";

describe("per-direction unions", () => {
  it("parse a client's tools/call and refuse a server's sampling request as a client request", () => {
    const call = { method: "tools/call", params: { name: "t", arguments: {} } };
    expect(v2025_11_25.ClientRequestSchema.safeParse(call).success).toBe(true);
    const sampling = {
      method: "sampling/createMessage",
      params: { messages: [], maxTokens: 1 },
    };
    expect(v2025_11_25.ClientRequestSchema.safeParse(sampling).success).toBe(false);
    expect(v2025_11_25.ServerRequestSchema.safeParse(sampling).success).toBe(true);
    expect(v2025_11_25.ServerRequestSchema.safeParse({ method: "ping" }).success).toBe(true);
  });

  it("separate notifications by sender", () => {
    expect(
      v2024_11_05.ClientNotificationSchema.safeParse({ method: "notifications/initialized" })
        .success,
    ).toBe(true);
    expect(
      v2024_11_05.ServerNotificationSchema.safeParse({ method: "notifications/initialized" })
        .success,
    ).toBe(false);
    expect(
      v2024_11_05.ServerNotificationSchema.safeParse({
        method: "notifications/message",
        params: { level: "info", data: "x" },
      }).success,
    ).toBe(true);
  });

  it("have no server requests in the modern revision", () => {
    expect(v2026_07_28.ServerRequestSchema.safeParse({ method: "ping" }).success).toBe(false);
    expectTypeOf<v2026_07_28.ServerRequest>().toBeNever();
  });

  it("list the same request and notification methods per sender as SDK 1.32.2", () => {
    expectTypeOf<v2025_11_25.ClientRequest["method"]>().toEqualTypeOf<
      sdkV1.ClientRequest["method"]
    >();
    expectTypeOf<v2025_11_25.ServerRequest["method"]>().toEqualTypeOf<
      sdkV1.ServerRequest["method"]
    >();
    expectTypeOf<v2025_11_25.ClientNotification["method"]>().toEqualTypeOf<
      sdkV1.ClientNotification["method"]
    >();
    expectTypeOf<v2025_11_25.ServerNotification["method"]>().toEqualTypeOf<
      sdkV1.ServerNotification["method"]
    >();
  });

  it("type a server result as any result of a client request", () => {
    expectTypeOf<v2025_11_25.CallToolResult>().toExtend<v2025_11_25.ServerResult>();
    expectTypeOf<v2025_11_25.CreateMessageResult>().toExtend<v2025_11_25.ClientResult>();
  });

  it("type each message as exactly what its method's own schema outputs", () => {
    expectTypeOf<
      Extract<v2025_11_25.ClientRequest, { method: "tools/call" }>
    >().toEqualTypeOf<v2025_11_25.CallToolRequest>();
    expectTypeOf<
      Extract<v2025_11_25.ServerRequest, { method: "sampling/createMessage" }>
    >().toEqualTypeOf<v2025_11_25.CreateMessageRequest>();
    expectTypeOf<
      Extract<v2024_11_05.ServerNotification, { method: "notifications/message" }>
    >().toEqualTypeOf<v2024_11_05.LoggingMessageNotification>();
    expectTypeOf<
      Extract<v2026_07_28.ClientRequest, { method: "tools/call" }>
    >().toEqualTypeOf<v2026_07_28.CallToolRequest>();
    expectTypeOf<v2026_07_28.CallToolResultOrInputRequired>().toExtend<v2026_07_28.ServerResult>();
  });
});
