import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sniffEnvelope } from "./sniff-envelope.js";

describe("sniffEnvelope", () => {
  it("reads the id and kind of a response whose envelope comes first", () => {
    const head = '{"jsonrpc":"2.0","id":42,"result":{"content":[{"type":"text","text":"xxx';
    expect(sniffEnvelope(head, 'xxx"}]}}')).toEqual({ id: 42, messageType: "response" });
  });

  it("reads a request with a string id, escapes included", () => {
    const head = '{ "jsonrpc" : "2.0", "id" : "a\\"b", "method" : "tools/call", "params": {"x":"';
    expect(sniffEnvelope(head, "")).toEqual({ id: 'a"b', messageType: "request" });
  });

  it("reads the id from the end when the envelope comes last, as the official SDK writes it", () => {
    expect(sniffEnvelope('{"result":{"content":[', 'text"}]},"jsonrpc":"2.0","id":7}')).toEqual({
      id: 7,
      messageType: "response",
    });
    expect(
      sniffEnvelope('{"method":"x","params":{"a":"', 'zz"},"jsonrpc":"2.0","id":"r-1"}'),
    ).toEqual({ id: "r-1", messageType: "request" });
  });

  it("takes id 0 and the empty string as real ids", () => {
    expect(sniffEnvelope('{"jsonrpc":"2.0","id":0,"result":{', "")).toEqual({
      id: 0,
      messageType: "response",
    });
    expect(sniffEnvelope('{"id":"","error":{', "")).toEqual({ id: "", messageType: "response" });
  });

  it("does not trust a number cut off by the end of the head", () => {
    expect(sniffEnvelope('{"jsonrpc":"2.0","id":12', "")).toEqual({});
  });

  it("does not take an id nested inside the result for the message's", () => {
    expect(sniffEnvelope('{"result":{"id":3,"x":"', '"id":3}}')).toEqual({
      messageType: "response",
    });
    expect(sniffEnvelope('{"result":"', 'a \\"id\\":3}"}')).toEqual({ messageType: "response" });
  });

  it("finds nothing in text that is not an object", () => {
    expect(sniffEnvelope('["id",1]', "")).toEqual({});
    expect(sniffEnvelope("garbage", "garbage")).toEqual({});
  });

  it("recovers the id of any message cut to its first 1 KiB, in either member order", () => {
    const id = fc.oneof(fc.integer({ min: 0 }), fc.string({ maxLength: 20 }));
    fc.assert(
      fc.property(id, fc.boolean(), fc.string({ minLength: 2000 }), (messageId, sdkOrder, text) => {
        const message = sdkOrder
          ? { result: { text }, jsonrpc: "2.0", id: messageId }
          : { jsonrpc: "2.0", id: messageId, result: { text } };
        const line = JSON.stringify(message);
        const encoded = new TextEncoder().encode(line);
        const decoder = new TextDecoder();
        const head = decoder.decode(encoded.subarray(0, 1024));
        const tail = decoder.decode(encoded.subarray(encoded.length - 256));
        expect(sniffEnvelope(head, tail)).toEqual({ id: messageId, messageType: "response" });
      }),
      { seed: 11, numRuns: 200 },
    );
  });
});
