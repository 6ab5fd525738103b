import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const packageDir = join(import.meta.dirname, "..");

describe("README", () => {
  it("shows only code that the examples/ files hold verbatim (so typecheck compiles it)", () => {
    const readme = readFileSync(join(packageDir, "README.md"), "utf8");
    const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");
    const examples = readdirSync(join(packageDir, "examples")).map((file) =>
      readFileSync(join(packageDir, "examples", file), "utf8"),
    );
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      expect(
        examples.some((example) => example.includes(block.trim())),
        block,
      ).toBe(true);
    }
  });
});
