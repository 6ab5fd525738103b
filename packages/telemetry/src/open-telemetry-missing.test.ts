import { afterEach, describe, expect, it, vi } from "vitest";

describe("loadOpenTelemetryBridge without @opentelemetry/api installed", () => {
  afterEach(() => {
    vi.doUnmock("@opentelemetry/api");
    vi.resetModules();
  });

  it("resolves to the no-op bridge", async () => {
    vi.resetModules();
    vi.doMock("@opentelemetry/api", () => {
      throw new Error("Cannot find package '@opentelemetry/api'");
    });
    const bridgeModule = await import("./open-telemetry-bridge.js");
    const bridge = await bridgeModule.loadOpenTelemetryBridge();
    expect(bridge).toBe(bridgeModule.NOOP_OPEN_TELEMETRY_BRIDGE);
    expect(bridge.isActive()).toBe(false);
  });
});
