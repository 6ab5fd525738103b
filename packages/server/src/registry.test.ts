import { describe, expect, it, vi } from "vitest";
import { Registry } from "./registry.js";

describe("Registry", () => {
  it("lists entries in registration order", () => {
    const registry = new Registry<number>("tool");
    registry.add("b", 2);
    registry.add("a", 1);
    expect(registry.values()).toEqual([2, 1]);
    expect(registry.get("a")).toBe(1);
    expect(registry.size).toBe(2);
  });

  it("refuses a second entry under the same key", () => {
    const registry = new Registry<number>("tool");
    registry.add("a", 1);
    expect(() => registry.add("a", 2)).toThrow(/tool named "a" is already registered/);
  });

  it("reports additions and removals but not a repeated removal", () => {
    const registry = new Registry<number>("prompt");
    const listener = vi.fn();
    registry.onChange(listener);
    const registration = registry.add("a", 1);
    registration.remove();
    registration.remove();
    expect(listener).toHaveBeenCalledTimes(2);
    expect(registry.get("a")).toBeUndefined();
  });

  it("does not remove a newer entry registered under the same key", () => {
    const registry = new Registry<number>("tool");
    const first = registry.add("a", 1);
    first.remove();
    registry.add("a", 2);
    first.remove();
    expect(registry.get("a")).toBe(2);
  });

  it("stops reporting after unsubscribe", () => {
    const registry = new Registry<number>("tool");
    const listener = vi.fn();
    const unsubscribe = registry.onChange(listener);
    unsubscribe();
    registry.add("a", 1);
    expect(listener).not.toHaveBeenCalled();
  });
});
