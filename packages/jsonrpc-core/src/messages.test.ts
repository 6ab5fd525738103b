import { describe, expect, it } from "vitest";
import {
  isBatch,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
  isJSONRPCSuccessResponse,
  type JSONRPCMessage,
  messagesOf,
} from "./messages.js";

const request: JSONRPCMessage = { jsonrpc: "2.0", id: 0, method: "m" };
const notification: JSONRPCMessage = { jsonrpc: "2.0", method: "m" };
const success: JSONRPCMessage = { jsonrpc: "2.0", id: "", result: null };
const failure: JSONRPCMessage = { jsonrpc: "2.0", id: null, error: { code: 1, message: "x" } };

describe("message guards", () => {
  it("tell requests (also with id 0) from notifications", () => {
    expect(isJSONRPCRequest(request)).toBe(true);
    expect(isJSONRPCNotification(request)).toBe(false);
    expect(isJSONRPCNotification(notification)).toBe(true);
    expect(isJSONRPCRequest(notification)).toBe(false);
  });

  it("tell the two kinds of response apart", () => {
    expect(isJSONRPCSuccessResponse(success)).toBe(true);
    expect(isJSONRPCErrorResponse(success)).toBe(false);
    expect(isJSONRPCErrorResponse(failure)).toBe(true);
    expect(isJSONRPCResponse(success) && isJSONRPCResponse(failure)).toBe(true);
    expect(isJSONRPCResponse(request) || isJSONRPCResponse(notification)).toBe(false);
  });

  it("recognise a batch", () => {
    expect(isBatch([request])).toBe(true);
    expect(isBatch(request)).toBe(false);
  });

  it("list a frame's messages: a batch's own array, a single message as one", () => {
    const batch = [request, notification];
    expect(messagesOf(batch)).toBe(batch);
    expect(messagesOf(success)).toEqual([success]);
    expect(messagesOf([])).toEqual([]);
  });
});
