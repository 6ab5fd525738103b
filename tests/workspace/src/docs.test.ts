import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageSourceFiles } from "./code-shape.js";
import {
  findErrorCodeLiterals,
  findMentions,
  mermaidEdges,
  packageOfNode,
  reachable,
  repositoryTextFiles,
} from "./docs.js";
import { allowedDependencies } from "./layers.js";
import { listWorkspacePackages, root } from "./workspace.js";

const architecture = join(root, "docs", "architecture.md");

describe("documentation", () => {
  it("cites no team document that is not in the repository", () => {
    // Spelled in two parts so that this file does not mention them itself.
    const outside = ["DESIGN", "STYLE"].map((name) => `${name}.md`);
    expect(findMentions(repositoryTextFiles(root), outside, root)).toEqual([]);
  });

  it("has an architecture page that the README links", () => {
    expect(existsSync(architecture)).toBe(true);
    expect(readFileSync(join(root, "README.md"), "utf8")).toContain("(docs/architecture.md)");
  });

  describe("the architecture page's layer picture", () => {
    const edges = mermaidEdges(existsSync(architecture) ? readFileSync(architecture, "utf8") : "");
    const packageEdges = edges.filter(([from]) => packageOfNode(from) in allowedDependencies);

    it("draws every package of the layer table", () => {
      const drawn = new Set(edges.flat().map(packageOfNode));
      for (const name of Object.keys(allowedDependencies)) expect(drawn, name).toContain(name);
    });

    it("draws only arrows the layer table allows", () => {
      const disallowed = packageEdges
        .map(([from, to]) => [packageOfNode(from), packageOfNode(to)] as const)
        .filter(([from, to]) => !allowedDependencies[from]?.includes(to))
        .map(([from, to]) => `${from} --> ${to}`);
      expect(disallowed).toEqual([]);
    });

    it("reaches every workspace dependency a package declares", () => {
      const missing: string[] = [];
      for (const pkg of listWorkspacePackages()) {
        const name = pkg.manifest.name;
        if (!(name in allowedDependencies)) continue;
        const id = name.replace("@patchbay/", "").replaceAll("-", "_");
        const below = new Set([...reachable(id, edges)].map(packageOfNode));
        for (const dependency of Object.keys(pkg.manifest.dependencies ?? {})) {
          if (dependency.startsWith("@patchbay/") && !below.has(dependency)) {
            missing.push(`${name} -> ${dependency}`);
          }
        }
      }
      expect(missing).toEqual([]);
    });
  });

  it("defines wire error codes in the error table only, and other code imports them", () => {
    // Where a code may be written as a number: the table itself (JSON-RPC's and the transports'
    // codes in jsonrpc-core, the rest in mcp-types), the contract suites' expected answers, and the
    // MCP codes transport-http answers with (transports may import nothing above jsonrpc-core).
    const allowed = [
      "packages/jsonrpc-core/src/errors/",
      "packages/mcp-types/src/errors/",
      "packages/contract-tests/src/",
      "packages/transport-http/src/modern-post.ts",
      "packages/transport-http/src/modern-http-request.ts",
    ];
    const files = listWorkspacePackages()
      .flatMap((pkg) => packageSourceFiles(pkg.dir))
      .filter((file) => !file.includes("/testing/"));
    const literals = findErrorCodeLiterals(files, root).filter(
      (place) => !allowed.some((prefix) => place.startsWith(prefix)),
    );
    expect(literals).toEqual([]);
  });
});
