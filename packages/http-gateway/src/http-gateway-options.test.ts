import { describe, expect, it } from "vitest";
import { DEFAULT_HTTP_GATEWAY_LIMITS, resolveLimits } from "./http-gateway-options.js";

const MiB = 1024 * 1024;

describe("resolveLimits", () => {
  it("lets a response carry any result maxResultBytes allows, with room for its envelope", () => {
    expect(resolveLimits()).toMatchObject({ maxResultBytes: 64 * MiB, maxResponseBytes: 65 * MiB });
    expect(DEFAULT_HTTP_GATEWAY_LIMITS.maxResponseBytes).toBe(65 * MiB);
    expect(resolveLimits({ maxResultBytes: 128 * MiB })).toMatchObject({
      maxResultBytes: 128 * MiB,
      maxResponseBytes: 129 * MiB,
    });
  });

  it("keeps a maxResponseBytes that is set", () => {
    expect(resolveLimits({ maxResponseBytes: 2 * MiB }).maxResponseBytes).toBe(2 * MiB);
    expect(resolveLimits({ maxResultBytes: 8 * MiB, maxResponseBytes: undefined })).toMatchObject({
      maxResponseBytes: 9 * MiB,
    });
  });
});
