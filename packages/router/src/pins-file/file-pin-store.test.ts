import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import type { PinSnapshot } from "../pins/pin-snapshot.js";
import { approvePinFile, createFilePinStore, readPinFile } from "./file-pin-store.js";

let directory: string | undefined;
afterEach(() => {
  if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
  directory = undefined;
});

const withheld: PinSnapshot = {
  version: 1,
  backends: {
    a: {
      "tool:x": {
        kind: "tool",
        name: "a__x",
        pinned: { hash: "old", definition: { name: "x" } },
        pending: { hash: "new", definition: { name: "x", description: "d" }, status: "changed" },
      },
    },
    b: {
      "tool:y": {
        kind: "tool",
        name: "b__y",
        pending: { hash: "y", definition: { name: "y" }, status: "unpinned" },
      },
    },
  },
};

it("saves atomically (no temporary file left) and loads what it saved; nothing before the first save", async () => {
  directory = mkdtempSync(join(tmpdir(), "patchbay-pins-"));
  const path = join(directory, "gateway.json.pins.json");
  const store = createFilePinStore(path);
  expect(await store.load()).toBeUndefined();
  await store.save(withheld);
  expect(await store.load()).toEqual(withheld);
  expect(readdirSync(directory)).toEqual(["gateway.json.pins.json"]);
});

it("refuses a file that is not a pin file, naming it", async () => {
  directory = mkdtempSync(join(tmpdir(), "patchbay-pins-"));
  const path = join(directory, "pins.json");
  writeFileSync(path, '{"pins": []}');
  await expect(readPinFile(path)).rejects.toThrow(`${path}: not a pin file`);
});

it("approves by name, or everything, in the file", async () => {
  directory = mkdtempSync(join(tmpdir(), "patchbay-pins-"));
  const path = join(directory, "pins.json");
  await createFilePinStore(path).save(withheld);
  expect(await approvePinFile(path, { name: "a__x" })).toEqual(["a__x"]);
  const after = JSON.parse(readFileSync(path, "utf8")) as PinSnapshot;
  expect(after.backends.a?.["tool:x"]?.pinned?.hash).toBe("new");
  expect(after.backends.b?.["tool:y"]?.pending?.status).toBe("unpinned");
  expect(await approvePinFile(path, { all: true })).toEqual(["b__y"]);
  expect(await approvePinFile(path, { all: true })).toEqual([]);
});
