import { describe, expect, it } from "vitest";
import { copyRecord } from "./trace-context.js";

describe("copyRecord", () => {
  it("copies own enumerable properties, symbols included, into a new plain object", () => {
    const tag = Symbol("tag");
    const source = { name: "echo", arguments: { a: 1 }, [tag]: "t" };
    Object.defineProperty(source, "hidden", { value: 1, enumerable: false });
    const copy = copyRecord(source);
    expect(copy).not.toBe(source);
    expect(Object.keys(copy)).toEqual(["name", "arguments"]);
    expect(copy.name).toBe("echo");
    expect(copy.arguments).toBe(source.arguments);
    expect((copy as Record<symbol, unknown>)[tag]).toBe("t");
    expect(Object.hasOwn(copy, "hidden")).toBe(false);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  });

  it("keeps a JSON-parsed __proto__ key as an own property instead of setting the prototype", () => {
    const source = JSON.parse('{"__proto__": {"polluted": true}, "name": "echo"}') as object;
    const copy = copyRecord(source);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(copy, "__proto__")?.value).toEqual({ polluted: true });
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
    expect(copy.name).toBe("echo");
  });

  it("lets the caller add and replace properties without touching the source", () => {
    const source = { name: "echo", _meta: { progressToken: 1 } };
    const copy = copyRecord(source);
    copy._meta = { traceparent: "x" };
    copy.extra = true;
    expect(source).toEqual({ name: "echo", _meta: { progressToken: 1 } });
    expect(Object.keys(copy)).toEqual(["name", "_meta", "extra"]);
  });
});
