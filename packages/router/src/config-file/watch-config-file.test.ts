import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { type ConfigFileWatch, watchConfigFile } from "./watch-config-file.js";

let directory: string | undefined;
let watching: ConfigFileWatch | undefined;

afterEach(() => {
  watching?.close();
  if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
});

/** Resolves with the file's text each time the watch reports a change. */
function changes(path: string, read: () => string) {
  const seen: string[] = [];
  let wake: (() => void) | undefined;
  watching = watchConfigFile(
    path,
    () => {
      seen.push(read());
      wake?.();
    },
    { debounceMs: 20 },
  );
  return async function next(): Promise<string> {
    while (seen.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    return seen.shift() as string;
  };
}

it("reports a change written in place and one renamed over the file, not a sibling's", async () => {
  directory = mkdtempSync(join(tmpdir(), "patchbay-watch-"));
  const path = join(directory, "proxy.json");
  writeFileSync(path, "one");
  let text = "one";
  const next = changes(path, () => text);

  writeFileSync(join(directory, "other.json"), "not watched");
  text = "two";
  writeFileSync(path, text);
  expect(await next()).toBe("two");

  // An editor's save: a new file renamed over the old one.
  text = "three";
  writeFileSync(join(directory, "proxy.json.tmp"), text);
  renameSync(join(directory, "proxy.json.tmp"), path);
  expect(await next()).toBe("three");
});
