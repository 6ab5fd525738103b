import { describe, expect, it } from "vitest";
import { z } from "zod";
import { v2025_11_25 } from "../index.js";
import {
  createShallowSchema,
  ShallowValidationError,
  toShallowDescriptor,
} from "./shallow-schema.js";

describe("shallow schemas", () => {
  it("accept absent params when the deep schema is optional", () => {
    const shallow = createShallowSchema(v2025_11_25.methods["tools/list"].params);
    expect(shallow.parse(undefined)).toBeUndefined();
    expect(() => shallow.parse("x")).toThrow(ShallowValidationError);
  });

  it("refuse missing required keys with zod-like issues", () => {
    const shallow = createShallowSchema(v2025_11_25.CallToolRequestParamsSchema);
    try {
      shallow.parse({ arguments: {} });
      expect.fail("should have thrown");
    } catch (error) {
      expect(error).toBeInstanceOf(ShallowValidationError);
      expect((error as ShallowValidationError).issues).toEqual([
        { path: ["name"], message: "Required" },
      ]);
    }
  });

  it("treat non-object schemas as pass-through", () => {
    expect(createShallowSchema(z.string()).parse(5)).toBe(5);
  });

  it("turn a descriptor into a flagged shallow one with the same method and direction", () => {
    const shallow = toShallowDescriptor(v2025_11_25.methods["tools/call"]);
    expect(shallow.shallow).toBe(true);
    expect(shallow.method).toBe("tools/call");
    expect(shallow.direction).toBe("client-to-server");
    const result = { content: [{ type: "unknown-kind" }] };
    expect(shallow.result.parse(result)).toBe(result);
    const notification = toShallowDescriptor(v2025_11_25.methods["notifications/progress"]);
    expect(() => notification.params.parse({ progress: 1 })).toThrow("Required");
  });
});
