import { readFileSync } from "node:fs";
import { join } from "node:path";

const exportList = /export\s+(type\s+)?\{([^}]*)\}/g;
const exportDeclaration =
  /export\s+(?:declare\s+)?(?:abstract\s+)?(const|let|function\*?|async\s+function|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/g;

/** The names a package's src/index.ts exports, each marked `type` when it is type-only, sorted. */
export function readExportedNames(packageDir: string): string[] {
  const source = readFileSync(join(packageDir, "src", "index.ts"), "utf8");
  const names = new Set<string>();
  for (const match of source.matchAll(exportList)) {
    const typeOnly = Boolean(match[1]);
    for (const raw of (match[2] ?? "").split(",")) {
      const item = raw.trim();
      if (item === "") continue;
      const itemTypeOnly = typeOnly || item.startsWith("type ");
      const name = item
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (name) names.add(itemTypeOnly ? `type ${name}` : name);
    }
  }
  for (const match of source.matchAll(exportDeclaration)) {
    const kind = match[1] ?? "";
    const name = match[2] ?? "";
    names.add(kind === "interface" || kind === "type" ? `type ${name}` : name);
  }
  return [...names].sort((a, b) => a.replace(/^type /, "").localeCompare(b.replace(/^type /, "")));
}

/** True when the index re-exports everything of a module (`export * from`), which docs/architecture.md ("Conventions") forbids. */
export function hasStarExport(packageDir: string): boolean {
  const source = readFileSync(join(packageDir, "src", "index.ts"), "utf8");
  return /export\s+\*\s+from/.test(source);
}
