import { describe, expect, it } from "vitest";
import { validateMessage } from "../validation/validate-message.js";
import {
  initializedAliasNotification,
  normalizeMessage,
  normalizeMethodName,
} from "./normalize-message.js";

describe("the bare initialized notification", () => {
  it("is renamed to notifications/initialized", () => {
    expect(normalizeMethodName("initialized")).toBe("notifications/initialized");
    const message = { jsonrpc: "2.0", method: "initialized" };
    expect(normalizeMessage(message)).toEqual({
      jsonrpc: "2.0",
      method: "notifications/initialized",
    });
    expect(message.method).toBe("initialized");
  });

  it("leaves other messages as they are (same object)", () => {
    const message = { jsonrpc: "2.0", id: 1, method: "tools/list" };
    expect(normalizeMessage(message)).toBe(message);
    expect(normalizeMessage("x")).toBe("x");
    expect(normalizeMessage([1])).toEqual([1]);
  });

  it("is accepted by validateMessage as notifications/initialized", () => {
    const result = validateMessage("2024-11-05", { jsonrpc: "2.0", method: "initialized" });
    expect(result.success).toBe(true);
    if (result.success)
      expect(result.data).toEqual({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect(
      validateMessage("2024-11-05", { jsonrpc: "2.0", method: "initialized" }, { normalize: false })
        .success,
    ).toBe(false);
  });

  it("has a descriptor a server can register next to notifications/initialized", () => {
    expect(initializedAliasNotification.method).toBe("initialized");
    expect(initializedAliasNotification.kind).toBe("notification");
    expect(initializedAliasNotification.direction).toBe("client-to-server");
    expect(initializedAliasNotification.params.parse(undefined)).toBeUndefined();
  });
});
