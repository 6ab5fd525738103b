import { describe, expect, it } from "vitest";
import { approvePins, type PinSnapshot, readPinSnapshot } from "./pin-snapshot.js";

const snapshot: PinSnapshot = {
  version: 1,
  backends: {
    a: {
      "tool:x": {
        kind: "tool",
        name: "a__x",
        pinned: { hash: "old", definition: { name: "x" } },
        pending: { hash: "new", definition: { name: "x", description: "d" }, status: "changed" },
      },
      "tool:y": { kind: "tool", name: "a__y", pinned: { hash: "y", definition: { name: "y" } } },
    },
    b: {
      "prompt:p": {
        kind: "prompt",
        name: "b__p",
        pending: { hash: "p", definition: { name: "p" }, status: "unpinned" },
      },
    },
  },
};

describe("approvePins", () => {
  it("makes a withheld definition the pin, by name", () => {
    const { snapshot: next, approved } = approvePins(snapshot, { name: "a__x" });
    expect(approved).toEqual(["a__x"]);
    expect(next.backends.a?.["tool:x"]).toEqual({
      kind: "tool",
      name: "a__x",
      pinned: { hash: "new", definition: { name: "x", description: "d" } },
    });
    expect(next.backends.b).toEqual(snapshot.backends.b);
  });

  it("approves every withheld definition of a backend, and nothing for an unknown name", () => {
    expect(approvePins(snapshot, { backend: "b", all: true }).approved).toEqual(["b__p"]);
    expect(approvePins(snapshot, { name: "a__y" }).approved).toEqual([]);
  });
});

describe("readPinSnapshot", () => {
  it("accepts a snapshot and refuses anything else", () => {
    expect(readPinSnapshot(JSON.parse(JSON.stringify(snapshot)))).toEqual(snapshot);
    expect(() => readPinSnapshot({ version: 2, backends: {} })).toThrow(/not a pin file/);
    expect(() => readPinSnapshot({ version: 1, backends: { a: { k: {} } } })).toThrow(
      /backends.a.k/,
    );
  });
});
