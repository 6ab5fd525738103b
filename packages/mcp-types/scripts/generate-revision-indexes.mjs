// Regenerates src/<revision>/index.ts from the exports of that revision's area files, so each
// revision's public list stays complete. Run: node scripts/generate-revision-indexes.mjs
// (then `pnpm exec biome check --write packages/mcp-types` from the repository root).
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const source = join(import.meta.dirname, "..", "src");
const revisions = readdirSync(source).filter((name) => /^\d{4}-\d{2}-\d{2}$/.test(name));

for (const revision of revisions) {
  const directory = join(source, revision);
  const files = readdirSync(directory)
    .filter((file) => file.endsWith(".ts") && file !== "index.ts" && !file.endsWith(".test.ts"))
    .sort();
  let output = "";
  for (const file of files) {
    const text = readFileSync(join(directory, file), "utf8");
    const values = new Set();
    const types = new Set();
    for (const match of text.matchAll(/^export (?:const|function) (\w+)/gm)) values.add(match[1]);
    for (const match of text.matchAll(/^export (?:type|interface) (\w+)/gm)) types.add(match[1]);
    for (const match of text.matchAll(/^export (type )?\{([^}]*)\}/gm)) {
      for (let name of match[2]
        .split(",")
        .map((part) => part.trim())
        .filter(Boolean)) {
        let isType = Boolean(match[1]);
        if (name.startsWith("type ")) {
          isType = true;
          name = name.slice(5).trim();
        }
        (isType ? types : values).add(name.includes(" as ") ? name.split(" as ")[1].trim() : name);
      }
    }
    const module = `./${file.replace(/\.ts$/, ".js")}`;
    const list = (names) =>
      [...names]
        .sort()
        .map((name) => `  ${name},`)
        .join("\n");
    if (types.size > 0) output += `export type {\n${list(types)}\n} from "${module}";\n`;
    if (values.size > 0) output += `export {\n${list(values)}\n} from "${module}";\n`;
  }
  writeFileSync(join(directory, "index.ts"), output);
}
console.log(`regenerated ${revisions.length} revision indexes`);
