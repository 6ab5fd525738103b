import { describe, expect, it } from "vitest";
import { createJSONRPCError } from "./create-jsonrpc-error.js";
import { ErrorCode } from "./error-code.js";
import { JSONRPCError } from "./jsonrpc-error.js";
import {
  InternalError,
  InvalidParamsError,
  InvalidRequestError,
  MethodNotFoundError,
  ParseError,
} from "./standard-errors.js";

describe("JSONRPCError", () => {
  it("serializes to code, message and data without a stack", () => {
    const error = new JSONRPCError(-32001, "Backend down", { backend: "github" });
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      code: -32001,
      message: "Backend down",
      data: { backend: "github" },
    });
  });

  it("omits data from the wire when there is none", () => {
    expect(new JSONRPCError(-32001, "x").toJSON()).toEqual({ code: -32001, message: "x" });
  });

  it("keeps falsy data such as 0 and empty string", () => {
    expect(new JSONRPCError(1, "x", 0).toJSON()).toEqual({ code: 1, message: "x", data: 0 });
    expect(new JSONRPCError(1, "x", "").toJSON()).toEqual({ code: 1, message: "x", data: "" });
  });

  it("gives each standard subclass its JSON-RPC code and default message", () => {
    expect(new ParseError().toJSON()).toEqual({ code: -32700, message: "Parse error" });
    expect(new InvalidRequestError().code).toBe(ErrorCode.InvalidRequest);
    expect(new MethodNotFoundError().code).toBe(-32601);
    expect(new InvalidParamsError().code).toBe(-32602);
    expect(new InternalError().code).toBe(-32603);
  });

  it("recognises its own classes and not others", () => {
    const error = new MethodNotFoundError();
    expect(JSONRPCError.isInstance(error)).toBe(true);
    expect(MethodNotFoundError.isInstance(error)).toBe(true);
    expect(InvalidParamsError.isInstance(error)).toBe(false);
    expect(JSONRPCError.isInstance(new Error("x"))).toBe(false);
    expect(JSONRPCError.isInstance(null)).toBe(false);
    expect(JSONRPCError.isInstance({ code: -32601, message: "x" })).toBe(false);
  });

  it("recognises errors made by a second copy of the module (duplicate install)", async () => {
    const copy = (await import(
      /* @vite-ignore */ `./standard-errors.js?copy=${Date.now()}`
    )) as typeof import("./standard-errors.js");
    expect(copy.ParseError).not.toBe(ParseError);
    const foreign = new copy.ParseError();
    expect(foreign instanceof ParseError).toBe(false);
    expect(ParseError.isInstance(foreign)).toBe(true);
    expect(JSONRPCError.isInstance(foreign)).toBe(true);
  });
});

describe("createJSONRPCError", () => {
  it.each([
    [-32700, ParseError],
    [-32600, InvalidRequestError],
    [-32601, MethodNotFoundError],
    [-32602, InvalidParamsError],
    [-32603, InternalError],
  ])("rebuilds code %i as its typed subclass", (code, Class) => {
    const error = createJSONRPCError({ code, message: "from peer", data: { a: 1 } });
    expect(Class.isInstance(error)).toBe(true);
    expect(error.message).toBe("from peer");
    expect(error.data).toEqual({ a: 1 });
  });

  it("rebuilds any other code as a plain JSONRPCError with code, message and data kept", () => {
    const error = createJSONRPCError({ code: -32042, message: "custom", data: [1] });
    expect(JSONRPCError.isInstance(error)).toBe(true);
    expect(InternalError.isInstance(error)).toBe(false);
    expect(error.toJSON()).toEqual({ code: -32042, message: "custom", data: [1] });
  });
});
