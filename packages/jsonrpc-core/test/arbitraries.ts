import fc from "fast-check";
import type { JSONRPCMessage } from "../src/messages.js";

/** Ids as JSON-RPC allows them, with 0 and "" weighted in. */
export const idArbitrary = fc.oneof(
  fc.constantFrom<string | number>(0, ""),
  fc.integer(),
  fc.string({ unit: "grapheme" }),
);

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const paramsArbitrary = fc.oneof(
  fc.dictionary(fc.string(), jsonValue, { maxKeys: 5 }),
  fc.array(jsonValue, { maxLength: 5 }),
);
const methodArbitrary = fc.string({ unit: "grapheme" });

/** Any valid JSON-RPC 2.0 message. */
export const messageArbitrary: fc.Arbitrary<JSONRPCMessage> = fc.oneof(
  fc.record(
    {
      jsonrpc: fc.constant("2.0" as const),
      id: idArbitrary,
      method: methodArbitrary,
      params: paramsArbitrary,
    },
    { requiredKeys: ["jsonrpc", "id", "method"] },
  ),
  fc.record(
    { jsonrpc: fc.constant("2.0" as const), method: methodArbitrary, params: paramsArbitrary },
    { requiredKeys: ["jsonrpc", "method"] },
  ),
  fc.record({ jsonrpc: fc.constant("2.0" as const), id: idArbitrary, result: jsonValue }),
  fc.record({
    jsonrpc: fc.constant("2.0" as const),
    id: fc.option(idArbitrary, { nil: null }),
    error: fc.record(
      { code: fc.integer(), message: fc.string(), data: jsonValue },
      { requiredKeys: ["code", "message"] },
    ),
  }),
) as fc.Arbitrary<JSONRPCMessage>;

/** A message or a non-empty batch. */
export const frameArbitrary = fc.oneof(
  messageArbitrary,
  fc.array(messageArbitrary, { minLength: 1, maxLength: 5 }),
);
