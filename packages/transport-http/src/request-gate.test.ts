import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { createOriginGuard } from "./request-gate.js";

const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe("createOriginGuard", () => {
  it("accepts loopback hosts on any port and no Origin by default", () => {
    const guard = createOriginGuard();
    for (const host of ["localhost", "localhost:3000", "127.0.0.1:8080", "[::1]:9"]) {
      expect(guard(request({ host })), host).toBeUndefined();
    }
  });

  it("refuses a foreign Host, a missing Host and a foreign Origin", () => {
    const guard = createOriginGuard();
    expect(guard(request({ host: "evil.example.com" }))?.message).toContain("evil.example.com");
    expect(guard(request({}))).toBeDefined();
    expect(guard(request({ host: "localhost", origin: "http://evil.example.com" }))).toBeDefined();
    expect(guard(request({ host: "localhost", origin: "null" }))).toBeDefined();
  });

  it("accepts loopback origins on any port by default", () => {
    const guard = createOriginGuard();
    expect(guard(request({ host: "localhost", origin: "http://localhost:5173" }))).toBeUndefined();
    expect(guard(request({ host: "localhost", origin: "https://127.0.0.1" }))).toBeUndefined();
  });

  it("honours host:port entries, exact origins and 'any'", () => {
    const guard = createOriginGuard({
      allowedHosts: ["api.example.com:8443"],
      allowedOrigins: ["https://app.example.com"],
    });
    expect(guard(request({ host: "api.example.com:8443" }))).toBeUndefined();
    expect(guard(request({ host: "api.example.com:80" }))).toBeDefined();
    expect(
      guard(request({ host: "api.example.com:8443", origin: "https://app.example.com" })),
    ).toBeUndefined();
    const open = createOriginGuard({ allowedHosts: "any", allowedOrigins: "any" });
    expect(open(request({ host: "anything", origin: "http://else" }))).toBeUndefined();
  });
});
