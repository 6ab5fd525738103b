import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const sourceDir = import.meta.dirname;
// Only the file sink touches Node, and only through a dynamic import.
const nodeFacing = new Set(["json-lines-file-sink.ts"]);

describe("runtime neutrality", () => {
  const files = readdirSync(sourceDir).filter(
    (file) => file.endsWith(".ts") && !file.endsWith(".test.ts"),
  );

  it.each(files)("%s has no static import of a Node built-in", (file) => {
    const source = readFileSync(join(sourceDir, file), "utf8");
    expect(source).not.toMatch(/from\s+"node:/);
    if (!nodeFacing.has(file)) expect(source).not.toMatch(/import\(\s*"node:/);
  });

  it("has no static import of an @opentelemetry package (optional peers)", () => {
    for (const file of files) {
      const source = readFileSync(join(sourceDir, file), "utf8");
      expect(source, file).not.toMatch(/^import\s+(?!type\b)[^;]*"@opentelemetry\//m);
    }
  });
});
