import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { ERROR_TABLE } from "../src/index.js";

it("is shown row for row in the repository README's Errors section", () => {
  const readme = readFileSync(join(import.meta.dirname, "..", "..", "..", "README.md"), "utf8");
  const section = readme.split("\n## Errors\n")[1]?.split("\n## ")[0] ?? "";
  const shown = [...section.matchAll(/^\| (-\d+) \| `(\w+)` \| (.+?) \| (.+?) \|$/gm)].map(
    ([, code, name, meaning, when]) => ({ code: Number(code), name, meaning, when }),
  );
  const expected = ERROR_TABLE.map(({ code, name, meaning, when }) => ({
    code,
    name,
    meaning,
    when,
  })).sort((a, b) => b.code - a.code);
  expect(shown).toEqual(expected);
});
