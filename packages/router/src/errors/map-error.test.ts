import { createRedactor, REDACTED } from "@patchbay/telemetry";
import { describe, expect, it } from "vitest";
import { GATEWAY_ERROR_TABLE, GatewayErrorCode } from "./gateway-error-code.js";
import {
  backendUnavailableError,
  INVALID_PARAMS,
  isWireError,
  MAX_ERROR_DATA_FIELD_LENGTH,
  MAX_ERROR_DETAIL_LENGTH,
  MAX_ERROR_MESSAGE_LENGTH,
  mapBackendError,
  unknownNameError,
} from "./map-error.js";
import { BackendSignInRequiredError } from "./sign-in-required.js";

class FakeLocalError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

describe("mapBackendError", () => {
  it("passes a backend's error through with its code and message", () => {
    const mapped = mapBackendError({ code: -32602, message: "bad arguments" }, "github");
    expect(mapped).toEqual({
      code: -32602,
      message: "bad arguments",
      data: { backend: "github", originalError: { code: -32602, message: "bad arguments" } },
    });
  });

  it("keeps the allow-listed fields of an object data and adds backend and originalError", () => {
    const original = { code: -32042, message: "needs url", data: { elicitations: [1] } };
    expect(mapBackendError(original, "b").data).toEqual({
      elicitations: [1],
      backend: "b",
      originalError: original,
    });
  });

  it("keeps the capabilities a -32021 says the request lacked (2026-07-28)", () => {
    const required = { extensions: { "io.modelcontextprotocol/tasks": {} } };
    const original = {
      code: -32021,
      message: "needs tasks",
      data: { requiredCapabilities: required },
    };
    expect(mapBackendError(original, "b").data).toEqual({
      requiredCapabilities: required,
      backend: "b",
      originalError: original,
    });
  });

  it("leaves out data fields outside the allow-list, also inside originalError", () => {
    const original = {
      code: -32603,
      message: "failed",
      data: { uri: "file:///a", stack: "Error at /srv/app/secret.js:1", internal: { db: "x" } },
    };
    const mapped = mapBackendError(original, "b");
    expect(mapped.data).toEqual({
      uri: "file:///a",
      backend: "b",
      originalError: { code: -32603, message: "failed", data: { uri: "file:///a" } },
    });
    expect(JSON.stringify(mapped)).not.toContain("/srv/app");
  });

  it("bounds the message and leaves out a data field too large to pass on", () => {
    const original = {
      code: -32602,
      message: "m".repeat(MAX_ERROR_MESSAGE_LENGTH * 10),
      data: { reason: "r".repeat(MAX_ERROR_DATA_FIELD_LENGTH * 2), name: "tool" },
    };
    const mapped = mapBackendError(original, "b");
    expect(mapped.message.length).toBeLessThan(MAX_ERROR_MESSAGE_LENGTH + 50);
    expect(mapped.data).toEqual({
      name: "tool",
      backend: "b",
      originalError: { code: -32602, message: mapped.message, data: { name: "tool" } },
    });
  });

  it("masks secrets in the message and data a backend sends, with the redactor given", () => {
    const redact = createRedactor({ secretValues: ["sk-live-123456"] });
    const mapped = mapBackendError(
      { code: -32603, message: "key sk-live-123456 refused", data: "at https://u:pw@h/x" },
      "b",
      { redact },
    );
    const text = JSON.stringify(mapped);
    expect(text).not.toContain("sk-live-123456");
    expect(text).not.toContain("u:pw");
    expect(mapped.message).toBe(`key ${REDACTED} refused`);
  });

  it("shows only the first line of a local failure, bounded and redacted, never its stack", () => {
    const failure = new FakeLocalError(
      "TRANSPORT_FAILURE",
      `connect ECONNREFUSED https://alice:pw-123456@api.example.com/mcp?api_key=k-99\n${"x".repeat(500)}`,
    );
    const mapped = mapBackendError(failure, "b");
    const detail = (mapped.data as { detail: string }).detail;
    expect(detail).toBe(
      `connect ECONNREFUSED https://${REDACTED}@api.example.com/mcp?api_key=${REDACTED}`,
    );
    const long = mapBackendError(new Error("y".repeat(1000)), "b");
    expect((long.data as { detail: string }).detail.length).toBeLessThan(
      MAX_ERROR_DETAIL_LENGTH + 50,
    );
    expect(JSON.stringify(mapped)).not.toContain("at ");
  });

  it("puts string data only inside originalError", () => {
    const original = { code: 7, message: "x", data: "text" };
    expect(mapBackendError(original, "b").data).toEqual({ backend: "b", originalError: original });
  });

  it("says what to run when a transport failed for want of a sign-in (found in its causes)", () => {
    const signIn = new BackendSignInRequiredError(
      "not signed in to https://tools.example.com/mcp; run: patchbay-gateway login remote",
    );
    const failure = new FakeLocalError(
      "TRANSPORT_FAILURE",
      "POST https://tools.example.com/mcp failed",
    );
    failure.cause = signIn;
    expect(mapBackendError(failure, "remote")).toEqual({
      code: GatewayErrorCode.BackendUnavailable,
      message:
        'Backend "remote" is unavailable (needs_sign_in): not signed in to https://tools.example.com/mcp; run: patchbay-gateway login remote',
      data: { backend: "remote", status: "needs_sign_in" },
    });
  });

  it("maps a local timeout to the gateway timeout code naming the backend", () => {
    const mapped = mapBackendError(new FakeLocalError("REQUEST_TIMEOUT", "timed out"), "slow");
    expect(mapped.code).toBe(GatewayErrorCode.BackendTimeout);
    expect(mapped.message).toContain('"slow"');
    expect(mapped.data).toMatchObject({ backend: "slow" });
  });

  it("maps a closed connection and a transport failure to their codes", () => {
    expect(mapBackendError(new FakeLocalError("CONNECTION_CLOSED", ""), "b").code).toBe(
      GatewayErrorCode.BackendConnectionClosed,
    );
    expect(mapBackendError(new FakeLocalError("TRANSPORT_FAILURE", ""), "b").code).toBe(
      GatewayErrorCode.BackendTransportFailed,
    );
  });

  it("maps a response dropped for its size to -32007 naming the limit", () => {
    const dropped = Object.assign(new FakeLocalError("LINE_TOO_LONG", "too long"), {
      maxLineBytes: 1024,
      lineBytes: 5000,
    });
    expect(mapBackendError(dropped, "big")).toEqual({
      code: GatewayErrorCode.BackendResponseTooLarge,
      message:
        'The response of backend "big" of 5000 bytes is over its limit of 1024 bytes (maxMessageBytes)',
      data: { backend: "big", limitBytes: 1024, responseBytes: 5000 },
    });
  });

  it("maps anything else to the gateway internal error", () => {
    expect(mapBackendError(new Error("boom"), "b")).toMatchObject({
      code: GatewayErrorCode.GatewayInternalError,
      data: { backend: "b", detail: "boom" },
    });
  });
});

describe("gateway error table", () => {
  it("keeps every code inside -32000..-32019 and away from -32002", () => {
    for (const row of GATEWAY_ERROR_TABLE) {
      expect(row.code).toBeGreaterThanOrEqual(-32019);
      expect(row.code).toBeLessThanOrEqual(-32000);
      expect(row.code).not.toBe(-32002);
    }
  });

  it("finds each code, with its meaning, in the one error table", () => {
    for (const row of GATEWAY_ERROR_TABLE) expect(row.meaning, row.name).not.toBe("");
  });

  it("lists every code once", () => {
    const codes = GATEWAY_ERROR_TABLE.map((row) => row.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.sort()).toEqual(Object.values(GatewayErrorCode).sort());
  });
});

describe("other errors", () => {
  it("reports an unknown tool as -32602", () => {
    expect(unknownNameError("tool", "nope")).toEqual({
      code: INVALID_PARAMS,
      message: "Tool not found: nope",
      data: { name: "nope" },
    });
  });

  it("names the backend and its status when it is unavailable", () => {
    expect(backendUnavailableError("b", "restarting")).toMatchObject({
      code: GatewayErrorCode.BackendUnavailable,
      data: { backend: "b", status: "restarting" },
    });
  });

  it("recognises wire errors structurally", () => {
    expect(isWireError({ code: 1, message: "m" })).toBe(true);
    expect(isWireError({ code: "X", message: "m" })).toBe(false);
    expect(isWireError(null)).toBe(false);
  });
});
