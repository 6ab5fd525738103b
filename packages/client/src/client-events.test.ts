import { describe, expect, it } from "vitest";
import { ClientEvents } from "./client-events.js";

describe("ClientEvents", () => {
  it("delivers a notification to every listener of its method and to catch-all listeners", () => {
    const events = new ClientEvents();
    const seen: string[] = [];
    events.on("notifications/message", (params) => seen.push(`a:${String(params.data)}`));
    events.on("notifications/message", (params) => seen.push(`b:${String(params.data)}`));
    events.on("notifications/progress", () => seen.push("wrong"));
    events.onAny((notification) => seen.push(`any:${notification.method}`));
    events.dispatch({
      jsonrpc: "2.0",
      method: "notifications/message",
      params: { level: "info", data: "x" },
    });
    expect(seen).toEqual(["a:x", "b:x", "any:notifications/message"]);
  });

  it("stops delivering to a listener once it unsubscribes, leaving the others", () => {
    const events = new ClientEvents();
    const seen: string[] = [];
    const unsubscribe = events.on("custom/thing", () => seen.push("first"));
    events.on("custom/thing", () => seen.push("second"));
    unsubscribe();
    unsubscribe();
    events.dispatch({ jsonrpc: "2.0", method: "custom/thing" });
    expect(seen).toEqual(["second"]);
  });

  it("passes an empty object for a notification without params", () => {
    const events = new ClientEvents();
    let received: unknown;
    events.on("notifications/tools/list_changed", (params) => {
      received = params;
    });
    events.dispatch({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    expect(received).toEqual({});
  });
});
