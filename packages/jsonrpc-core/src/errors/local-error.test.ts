import { describe, expect, it } from "vitest";
import {
  CancelledError,
  ConnectionClosedError,
  ResultValidationError,
  TimeoutError,
  UnexpectedResponseError,
} from "./connection-errors.js";
import { JSONRPCError } from "./jsonrpc-error.js";
import { LocalError } from "./local-error.js";
import { InvalidFrameError, LineTooLongError, TransportError } from "./transport-errors.js";

describe("local errors", () => {
  it("carry string codes", () => {
    expect(new TimeoutError("t", 5).code).toBe("REQUEST_TIMEOUT");
    expect(new ConnectionClosedError().code).toBe("CONNECTION_CLOSED");
    expect(new CancelledError().code).toBe("REQUEST_CANCELLED");
    expect(new TransportError("x").code).toBe("TRANSPORT_FAILURE");
    const response = { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } };
    expect(new InvalidFrameError("x", response as never).code).toBe("INVALID_FRAME");
    expect(new LineTooLongError(10).code).toBe("LINE_TOO_LONG");
    expect(new UnexpectedResponseError("x", { jsonrpc: "2.0", id: 1, result: 1 }).code).toBe(
      "UNEXPECTED_RESPONSE",
    );
    expect(new ResultValidationError("x").code).toBe("INVALID_RESULT");
  });

  it("keep their cause", () => {
    const cause = new Error("socket reset");
    expect(new TransportError("send failed", { cause }).cause).toBe(cause);
    expect(new ConnectionClosedError(undefined, { cause }).cause).toBe(cause);
  });

  it("have no cause property when none was given", () => {
    expect("cause" in new TransportError("x")).toBe(false);
  });

  it("never serialize like a JSON-RPC error object", () => {
    const json = JSON.parse(JSON.stringify(new TimeoutError("timed out", 10)));
    expect(json).toEqual({ name: "TimeoutError", code: "REQUEST_TIMEOUT", message: "timed out" });
    expect(typeof json.code).not.toBe("number");
  });

  it("are a family separate from wire errors", () => {
    const error = new TimeoutError("t", 1);
    expect(LocalError.isInstance(error)).toBe(true);
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect(JSONRPCError.isInstance(error)).toBe(false);
    expect(CancelledError.isInstance(error)).toBe(false);
    expect(LocalError.isInstance(new JSONRPCError(1, "x"))).toBe(false);
  });

  it("are recognised across a duplicate install", async () => {
    const copy = (await import(
      /* @vite-ignore */ `./connection-errors.js?copy=${Date.now()}`
    )) as typeof import("./connection-errors.js");
    const foreign = new copy.ConnectionClosedError();
    expect(foreign instanceof ConnectionClosedError).toBe(false);
    expect(ConnectionClosedError.isInstance(foreign)).toBe(true);
    expect(LocalError.isInstance(foreign)).toBe(true);
  });
});
