import { describe, expect, it } from "vitest";
import {
  anonymousSessionCap,
  DEFAULT_HTTP_GATEWAY_LIMITS,
  resolveLimits,
} from "./http-gateway-options.js";

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

  it("caps one identity at a tenth of maxSessions (at least 1) unless set", () => {
    expect(resolveLimits()).toMatchObject({ maxSessions: 1000, maxSessionsPerIdentity: 100 });
    expect(DEFAULT_HTTP_GATEWAY_LIMITS.maxSessionsPerIdentity).toBe(100);
    expect(resolveLimits({ maxSessions: 50 }).maxSessionsPerIdentity).toBe(5);
    expect(resolveLimits({ maxSessions: 9 }).maxSessionsPerIdentity).toBe(1);
    expect(resolveLimits({ maxSessions: 50, maxSessionsPerIdentity: 30 })).toMatchObject({
      maxSessionsPerIdentity: 30,
    });
  });

  it("caps the anonymous identity at maxSessions unless maxSessionsPerIdentity is set", () => {
    expect(anonymousSessionCap()).toBe(1000);
    expect(anonymousSessionCap({ maxSessions: 300 })).toBe(300);
    expect(anonymousSessionCap({ maxSessions: 300, maxSessionsPerIdentity: 7 })).toBe(7);
  });
});
