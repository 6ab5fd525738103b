import fc from "fast-check";
import { idKey } from "./line-peer.js";

/**
 * A hostile frame: built around a unique id so that its answers can be counted. `bytes` is what
 * goes on the wire (without the newline); it may itself contain newlines or invalid UTF-8.
 */
export type FrameFactory = (id: number) => Uint8Array;

const encoder = new TextEncoder();
const text = (value: string) => encoder.encode(value);
const json = (value: unknown) => text(JSON.stringify(value));

/** Nests `inner` `depth` levels deep in arrays or objects, without recursion. */
export function nest(depth: number, kind: "array" | "object", inner = "0"): string {
  const open = kind === "array" ? "[" : '{"a":';
  const close = kind === "array" ? "]" : "}";
  return `${open.repeat(depth)}${inner}${close.repeat(depth)}`;
}

/** The tools a fuzzed call may name: ones that answer at once, and names no backend has. */
const toolNames = (prefix: string) =>
  fc.constantFrom(
    `${prefix}echo`,
    `${prefix}add`,
    `${prefix}test_simple_text`,
    "__proto__",
    "constructor",
    "no_such_tool",
    "",
  );

const methods = fc.constantFrom(
  "ping",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/read",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "logging/setLevel",
  "no/such/method",
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
);

const hugeNumber = fc.constantFrom(
  "1e400",
  "-1e400",
  "123456789012345678901234567890",
  "1e-400",
  "-0",
  "9007199254740993",
  "0.1e999999",
);

const protoObject = fc.constantFrom(
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"__proto__":null,"toString":1,"valueOf":"x"}',
  '{"name":"__proto__","arguments":{"__proto__":{"isAdmin":true}}}',
);

/** Arguments for a tool call: ordinary, prototype-polluting, deep or with huge numbers. */
const argumentsText = fc.oneof(
  fc.string({ maxLength: 40 }).map((message) => JSON.stringify({ message })),
  fc.tuple(hugeNumber, hugeNumber).map(([a, b]) => `{"a":${a},"b":${b}}`),
  protoObject,
  fc
    .integer({ min: 1, max: 10_000 })
    .map((depth) => `{"message":"deep","x":${nest(depth, "array")}}`),
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
);

/** A well-formed request (it must be answered exactly once) with hostile content. */
const validRequest = (prefix: string): fc.Arbitrary<FrameFactory> =>
  fc.oneof(
    fc.tuple(toolNames(prefix), argumentsText).map(
      ([name, args]) =>
        (id: number) =>
          text(
            `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":${args}}}`,
          ),
    ),
    methods.map((method) => (id: number) => json({ jsonrpc: "2.0", id: `s-${id}`, method })),
    fc.tuple(methods, fc.oneof(protoObject, fc.constant(nest(10_000, "object")))).map(
      ([method, params]) =>
        (id: number) =>
          text(
            `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)},"params":${params}}`,
          ),
    ),
  );

/** Frames that are not valid JSON-RPC requests, each still carrying the id where it can. */
const malformed: fc.Arbitrary<FrameFactory> = fc.oneof(
  // Not JSON at all, possibly with newlines splitting it into several lines.
  fc.string({ maxLength: 200 }).map((garbage) => () => text(garbage)),
  // Invalid UTF-8 inside and around a request.
  fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => (id: number) => {
    const high = bytes.map((byte) => byte | 0x80);
    const prefix = text(`{"jsonrpc":"2.0","id":${id},"method":"ping","params":{"x":"`);
    const suffix = text('"}}');
    const frame = new Uint8Array(prefix.length + high.length + suffix.length);
    frame.set(prefix, 0);
    frame.set(high, prefix.length);
    frame.set(suffix, prefix.length + high.length);
    return frame;
  }),
  fc.uint8Array({ minLength: 1, maxLength: 200 }).map((bytes) => () => bytes),
  // Wrong types in every envelope member.
  fc
    .record({
      jsonrpc: fc.constantFrom(1, "1.0", null, "2.0 ", ["2.0"]),
      method: fc.constantFrom(5, null, true, ["ping"], { m: 1 }, "ping"),
      params: fc.constantFrom("x", 5, null, true, undefined),
    })
    .map((members) => (id: number) => json({ ...members, id })),
  fc
    .constantFrom({}, [], true, null, { id: 1 })
    .map((badId) => () => json({ jsonrpc: "2.0", id: badId, method: "ping" })),
  // Ids beyond every number type: infinite once parsed, or unique but past 2^53.
  fc
    .constantFrom("1e400", "-1e400", "0.1e999999")
    .map((number) => () => text(`{"jsonrpc":"2.0","id":${number},"method":"ping"}`)),
  fc.constant((id: number) =>
    text(`{"jsonrpc":"2.0","id":1${id}${"0".repeat(25)},"method":"ping"}`),
  ),
  // Deep nesting as the whole frame, and JSON that is valid but not an object.
  fc.integer({ min: 1, max: 10_000 }).map((depth) => () => text(nest(depth, "array"))),
  fc.jsonValue({ maxDepth: 3 }).map((value) => () => json(value)),
  // Responses nobody asked for, and notifications with hostile params.
  fc.constant((id: number) => json({ jsonrpc: "2.0", id: `stray-${id}`, result: {} })),
  protoObject.map(
    (params) => () =>
      text(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":${params}}`),
  ),
);

/** Batch elements get ids from here on, apart from the ids of whole frames. */
const BATCH_IDS = 1_000_000_000;

/** A small batch of hostile elements: each valid request in it must still be answered once. */
const batch = (prefix: string): fc.Arbitrary<FrameFactory> =>
  fc
    .array(fc.oneof(validRequest(prefix), malformed), { minLength: 0, maxLength: 5 })
    .map((factories) => (id: number) => {
      const parts = factories.map((factory, index) =>
        new TextDecoder().decode(factory(BATCH_IDS + id * 10 + index)),
      );
      return text(`[${parts.join(",")}]`);
    });

/** Any hostile frame; `prefix` is the namespace of the sample backend's tools (`sample__` or ""). */
export function hostileFrame(prefix: string): fc.Arbitrary<FrameFactory> {
  return fc.oneof(
    { arbitrary: validRequest(prefix), weight: 3 },
    { arbitrary: malformed, weight: 4 },
    { arbitrary: batch(prefix), weight: 1 },
  );
}

/**
 * The ids a receiver must answer exactly once for these bytes: every valid request on every line
 * (the bytes may hold several), read the way a receiver reads them (invalid UTF-8 replaced). An
 * HTTP body is one frame whatever newlines it holds: `framing: "whole"`.
 */
export function idsOwedAnswers(bytes: Uint8Array, framing: "lines" | "whole" = "lines"): string[] {
  const owed: string[] = [];
  const text = new TextDecoder().decode(bytes);
  for (const line of framing === "lines" ? text.split("\n") : [text]) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    for (const element of Array.isArray(value) ? value : [value]) {
      if (isAnswerableRequest(element)) owed.push(idKey(element.id));
    }
  }
  return owed;
}

function isAnswerableRequest(value: unknown): value is { id: string | number } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const message = value as Record<string, unknown>;
  const { id, params } = message;
  return (
    message.jsonrpc === "2.0" &&
    typeof message.method === "string" &&
    (typeof id === "string" || (typeof id === "number" && Number.isFinite(id))) &&
    (params === undefined || (typeof params === "object" && params !== null))
  );
}
