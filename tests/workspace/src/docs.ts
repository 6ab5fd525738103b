import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const SKIPPED_DIRECTORIES = new Set([
  "node_modules",
  "dist",
  ".git",
  ".turbo",
  ".test-results",
  "coverage",
]);
const TEXT_FILE = /\.(ts|mts|cts|js|mjs|cjs|md|json|ya?ml)$/;

/** Every text file of the repository (sources, docs, manifests), less dependencies and builds. */
export function repositoryTextFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED_DIRECTORIES.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...repositoryTextFiles(path));
    else if (TEXT_FILE.test(entry.name) && entry.name !== "pnpm-lock.yaml") files.push(path);
  }
  return files;
}

/** `file:line` of each line of `files` that contains one of `needles`. */
export function findMentions(
  files: readonly string[],
  needles: readonly string[],
  root: string,
): string[] {
  const found: string[] = [];
  for (const file of files) {
    const lines = readFileSync(file, "utf8").split("\n");
    lines.forEach((line, index) => {
      if (needles.some((needle) => line.includes(needle))) {
        found.push(`${relative(root, file)}:${index + 1}`);
      }
    });
  }
  return found;
}

/**
 * The edges of the first Mermaid flowchart in `markdown`, as `[from, to]` node ids (`a --> b`).
 */
export function mermaidEdges(markdown: string): [string, string][] {
  const block = /```mermaid\n([\s\S]*?)```/.exec(markdown)?.[1] ?? "";
  const edges: [string, string][] = [];
  for (const line of block.split("\n")) {
    const match = /^\s*(\w+)(?:\[[^\]]*\])?\s*-->\s*(\w+)/.exec(line);
    if (match?.[1] !== undefined && match[2] !== undefined) edges.push([match[1], match[2]]);
  }
  return edges;
}

/** The package a picture's node id stands for (`http_gateway` is `@patchbay/http-gateway`). */
export function packageOfNode(id: string): string {
  return `@patchbay/${id.replaceAll("_", "-")}`;
}

/** Every node reachable from `start` along `edges` (not `start` itself). */
export function reachable(start: string, edges: readonly [string, string][]): Set<string> {
  const seen = new Set<string>();
  const queue = [start];
  for (let node = queue.shift(); node !== undefined; node = queue.shift()) {
    for (const [from, to] of edges) {
      if (from === node && !seen.has(to)) {
        seen.add(to);
        queue.push(to);
      }
    }
  }
  return seen;
}

/**
 * `file:line` of each line of `files` that writes a JSON-RPC error code (-32xxx) as a number
 * literal, outside comments and strings.
 */
export function findErrorCodeLiterals(files: readonly string[], root: string): string[] {
  const found: string[] = [];
  for (const file of files) {
    const lines = readFileSync(file, "utf8").split("\n");
    lines.forEach((line, index) => {
      if (/^\s*(\*|\/\*)/.test(line)) return;
      const code = line.replace(/\/\/.*$/, "").replace(/`[^`]*`|"[^"]*"/g, "");
      if (/-32\d{3}\b/.test(code)) found.push(`${relative(root, file)}:${index + 1}`);
    });
  }
  return found;
}
