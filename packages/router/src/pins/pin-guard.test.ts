import { describe, expect, it } from "vitest";
import { createNameCodec } from "../namespacing/qualified-name.js";
import { PinGuard } from "./pin-guard.js";
import { createMemoryPinStore, type PinStore } from "./pin-store.js";
import { resolvePinsConfig } from "./pins-config.js";

function guardOf(store: PinStore = createMemoryPinStore()) {
  const warnings: string[] = [];
  const guard = new PinGuard({
    store,
    config: () => resolvePinsConfig(undefined),
    codec: () => createNameCodec({}),
    warn: (message) => warnings.push(message),
  });
  return { guard, warnings };
}

describe("PinGuard", () => {
  it("pins items whose names are Object.prototype's like any other", () => {
    const { guard } = guardOf();
    const listing = {
      backend: "constructor",
      namespace: "",
      tools: [{ name: "constructor" }, { name: "toString" }],
    };
    expect(guard.vet(listing).tools).toEqual(listing.tools);
    expect(guard.withheld()).toEqual([]);
  });

  it("reads a store that failed again at the next try", async () => {
    let fail = true;
    const store: PinStore = {
      load: async () => {
        if (fail) throw new Error("unreadable");
        return undefined;
      },
      save: async () => {},
    };
    const { guard } = guardOf(store);
    const connect = guard.afterLoad((name: string) => `connected ${name}`);
    await expect(connect("a")).rejects.toThrow("unreadable");
    fail = false;
    expect(await connect("a")).toBe("connected a");
  });
});
