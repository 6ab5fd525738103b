import { describe, expect, it } from "vitest";
import {
  isNegotiatedVersionAcceptable,
  negotiateLegacyProtocolVersion,
} from "./legacy-negotiation.js";
import { checkModernProtocolVersion } from "./modern-version-check.js";

describe("legacy negotiation", () => {
  it("answers the requested revision when it is supported", () => {
    expect(negotiateLegacyProtocolVersion("2024-11-05")).toBe("2024-11-05");
    expect(negotiateLegacyProtocolVersion("2025-06-18")).toBe("2025-06-18");
  });

  it("answers its latest legacy revision for an unknown one, as server-everything does", () => {
    expect(negotiateLegacyProtocolVersion("1999-01-01")).toBe("2025-11-25");
    expect(negotiateLegacyProtocolVersion(undefined)).toBe("2025-11-25");
  });

  it("never answers a modern revision to initialize", () => {
    expect(negotiateLegacyProtocolVersion("2026-07-28", ["2024-11-05", "2026-07-28"])).toBe(
      "2024-11-05",
    );
  });

  it("respects a narrower supported list", () => {
    expect(negotiateLegacyProtocolVersion("2025-11-25", ["2024-11-05", "2025-03-26"])).toBe(
      "2025-03-26",
    );
  });

  it("lets the client check the answered revision", () => {
    expect(isNegotiatedVersionAcceptable("2025-06-18")).toBe(true);
    expect(isNegotiatedVersionAcceptable("1999-01-01")).toBe(false);
  });
});

describe("modern per-request version check", () => {
  const params = (version?: string) => ({
    _meta:
      version === undefined
        ? {}
        : {
            "io.modelcontextprotocol/protocolVersion": version,
            "io.modelcontextprotocol/clientCapabilities": {},
          },
  });

  it("accepts a supported revision", () => {
    expect(checkModernProtocolVersion(params("2026-07-28"))).toEqual({
      ok: true,
      version: "2026-07-28",
    });
  });

  it("answers -32022 with data.supported and data.requested for an unsupported one", () => {
    const check = checkModernProtocolVersion(params("2027-01-01"));
    expect(check).toEqual({
      ok: false,
      error: {
        code: -32022,
        message: "Unsupported protocol version: 2027-01-01",
        data: { supported: ["2026-07-28"], requested: "2027-01-01" },
      },
    });
  });

  it("answers -32602 when the version is missing", () => {
    const check = checkModernProtocolVersion(params());
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.error.code).toBe(-32602);
    const noParams = checkModernProtocolVersion(undefined);
    if (!noParams.ok) expect(noParams.error.code).toBe(-32602);
  });
});
