import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as root from "../src/index.js";
import { PROTOCOL_VERSIONS } from "../src/versions.js";

const namespaces = {
  "2024-11-05": root.v2024_11_05,
  "2025-03-26": root.v2025_03_26,
  "2025-06-18": root.v2025_06_18,
  "2025-11-25": root.v2025_11_25,
  "2026-07-28": root.v2026_07_28,
} as const;

describe("the public lists stay complete", () => {
  for (const revision of PROTOCOL_VERSIONS) {
    it(`the ${revision} namespace exports every value of its area files`, async () => {
      const directory = join(import.meta.dirname, "..", "src", revision);
      const areas = readdirSync(directory).filter(
        (file) => file.endsWith(".ts") && file !== "index.ts" && !file.endsWith(".test.ts"),
      );
      for (const area of areas) {
        const module = (await import(join(directory, area))) as Record<string, unknown>;
        for (const [name, value] of Object.entries(module)) {
          expect(namespaces[revision], `${revision}/${area}: ${name}`).toHaveProperty(name, value);
        }
      }
    });
  }

  it("the root re-exports every value of the latest revision by the same name", () => {
    for (const [name, value] of Object.entries(root.v2026_07_28)) {
      expect(root, name).toHaveProperty(name, value);
    }
  });
});
