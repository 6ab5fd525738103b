import { describe, expect, it } from "vitest";
import {
  createHeaderMismatchError,
  createMissingRequiredClientCapabilityError,
  createResourceNotFoundError,
  createUnsupportedProtocolVersionError,
  createUrlElicitationRequiredError,
} from "./error-builders.js";
import {
  ERROR_CODES_BY_REVISION,
  isErrorCodeOfRevision,
  isImplementationDefinedErrorCode,
  isSpecErrorCode,
} from "./error-codes.js";
import { createLocalFailureError, isLocalFailureCode } from "./local-failure.js";

describe("error codes per revision", () => {
  it("uses -32002 for resource not found in legacy revisions and -32602 in 2026-07-28", () => {
    expect(createResourceNotFoundError("file:///x", "2025-11-25")).toEqual({
      code: -32002,
      message: "Resource not found: file:///x",
      data: { uri: "file:///x" },
    });
    expect(createResourceNotFoundError("file:///x", "2026-07-28").code).toBe(-32602);
  });

  it("knows -32042 only in 2025-11-25 and -32020..-32022 only in 2026-07-28", () => {
    expect(isErrorCodeOfRevision(-32042, "2025-11-25")).toBe(true);
    expect(isErrorCodeOfRevision(-32042, "2026-07-28")).toBe(false);
    expect(isErrorCodeOfRevision(-32022, "2026-07-28")).toBe(true);
    expect(isErrorCodeOfRevision(-32022, "2025-11-25")).toBe(false);
    expect(isErrorCodeOfRevision(-32002, "2026-07-28")).toBe(false);
    expect(ERROR_CODES_BY_REVISION["2024-11-05"]).toContain(-32002);
  });

  it("builds the modern errors with their data", () => {
    expect(createUnsupportedProtocolVersionError("1999-01-01", ["2026-07-28"])).toEqual({
      code: -32022,
      message: "Unsupported protocol version: 1999-01-01",
      data: { supported: ["2026-07-28"], requested: "1999-01-01" },
    });
    expect(createMissingRequiredClientCapabilityError({ elicitation: {} }).data).toEqual({
      requiredCapabilities: { elicitation: {} },
    });
    expect(createHeaderMismatchError("Mcp-Name does not match params.name").code).toBe(-32020);
  });

  it("builds URLElicitationRequired with its elicitations", () => {
    const elicitation = {
      mode: "url" as const,
      message: "Log in",
      url: "https://x",
      elicitationId: "e1",
    };
    expect(createUrlElicitationRequiredError([elicitation])).toEqual({
      code: -32042,
      message: "This request requires more information.",
      data: { elicitations: [elicitation] },
    });
  });

  it("tells spec codes from implementation-defined ones", () => {
    for (const code of [-32700, -32600, -32601, -32602, -32603, -32002, -32042, -32020, -32099]) {
      expect(isSpecErrorCode(code)).toBe(true);
    }
    for (const code of [-32000, -32001, -32019]) {
      expect(isSpecErrorCode(code)).toBe(false);
      expect(isImplementationDefinedErrorCode(code)).toBe(true);
    }
  });
});

describe("local failures never use a peer's code", () => {
  it("accepts a gateway code in -32000..-32019", () => {
    expect(
      createLocalFailureError(-32010, "Backend github is down", { backend: "github" }),
    ).toEqual({
      code: -32010,
      message: "Backend github is down",
      data: { backend: "github" },
    });
    expect(isLocalFailureCode(-32000)).toBe(true);
  });

  it("refuses JSON-RPC and MCP codes a peer could have sent", () => {
    for (const code of [
      -32603, -32602, -32601, -32002, -32042, -32020, -32022, -32050, 1, -32020.5,
    ]) {
      expect(() => createLocalFailureError(code, "timeout")).toThrow(RangeError);
      expect(isLocalFailureCode(code)).toBe(false);
    }
  });
});
