import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writePinFile } from "@patchbay/router/pins-file";
import { afterEach, expect, it } from "vitest";
import { runPinsCommand } from "./pins-command.js";

let directory: string | undefined;
afterEach(() => {
  if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
  directory = undefined;
});

const withheld = (name: string) => ({
  kind: "tool" as const,
  name,
  pinned: { hash: "old", definition: { name, description: "old" } },
  pending: {
    hash: "new",
    definition: { name, description: "new" },
    status: "changed" as const,
  },
});

async function run(...args: string[]) {
  let out = "";
  let err = "";
  const code = await runPinsCommand(args, {
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
  });
  return { code, out, err };
}

it("lists the pins of the file pins.file names, and approves every withheld one of a backend", async () => {
  directory = mkdtempSync(join(tmpdir(), "patchbay-pins-command-"));
  const config = join(directory, "gateway.json");
  writeFileSync(config, JSON.stringify({ pins: { file: "kept.json" }, mcpServers: {} }));
  const pinFile = join(directory, "kept.json");
  await writePinFile(pinFile, {
    version: 1,
    backends: { a: { "tool:x": withheld("a__x") }, b: { "tool:y": withheld("b__y") } },
  });

  const listed = await run("list", "--config", config);
  expect(listed.code).toBe(0);
  expect(JSON.parse(listed.out)).toEqual([
    expect.objectContaining({
      backend: "a",
      name: "a__x",
      status: "changed",
      withheld: expect.objectContaining({ diff: "description:\n- old\n+ new" }),
    }),
    expect.objectContaining({ backend: "b", name: "b__y", status: "changed" }),
  ]);

  expect(await run("approve", "--all", "--backend", "b", "--config", config)).toEqual({
    code: 0,
    out: "approved: b__y\n",
    err: "",
  });
  const after = JSON.parse(readFileSync(pinFile, "utf8"));
  expect(after.backends.b["tool:y"].pending).toBeUndefined();
  expect(after.backends.a["tool:x"].pending).toBeDefined();
});

it("refuses usage it does not know with exit code 2", async () => {
  expect((await run("approve", "--config", "x.json")).code).toBe(2);
  expect((await run("approve", "a__x", "--all", "--config", "x.json")).code).toBe(2);
  expect((await run("list")).code).toBe(2);
  expect((await run("list", "--nope")).code).toBe(2);
});
