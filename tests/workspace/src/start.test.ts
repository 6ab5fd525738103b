import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listWorkspacePackages, root } from "./workspace.js";

const all = listWorkspacePackages();
const byName = new Map(all.map((pkg) => [pkg.manifest.name, pkg]));
const rootScripts = (
  JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  }
).scripts;

/** `name` and every workspace package it needs at run time (its dependencies, transitively). */
function runtimeClosure(name: string, found = new Set<string>()): Set<string> {
  found.add(name);
  for (const dep of Object.keys(byName.get(name)?.manifest.dependencies ?? {})) {
    if (byName.has(dep) && !found.has(dep)) runtimeClosure(dep, found);
  }
  return found;
}

/** The tasks turbo would run for `command` (`turbo run …`), from its dry run. */
function plannedTasks(command: string): { package: string; command: string }[] {
  const [turbo, ...args] = command.split(" ");
  expect(turbo).toBe("turbo");
  const result = spawnSync(join(root, "node_modules", ".bin", "turbo"), [...args, "--dry=json"], {
    cwd: root,
    encoding: "utf8",
    timeout: 30_000,
  });
  expect(result.status, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { tasks: { package: string; command: string }[] }).tasks;
}

describe("pnpm start", () => {
  const [build, run] = (rootScripts.start ?? "").split(" && ");

  it("builds, then runs the proxy's CLI", () => {
    expect(build).toMatch(/^turbo run /);
    expect(run).toBe("node apps/proxy/dist/cli.js");
  });

  it("builds the JavaScript of the proxy and of every package it runs, with tsup alone (no declarations)", () => {
    const tasks = plannedTasks(build ?? "");
    for (const name of runtimeClosure("@patchbay/proxy")) {
      expect(tasks.find((task) => task.package === name)?.command, name).toBe("tsup");
    }
    expect(tasks.filter((task) => task.command !== "tsup")).toEqual([]);
  }, 30_000);
});

describe.each(all.map((pkg) => [pkg.manifest.name, pkg.manifest.scripts ?? {}] as const))(
  "%s",
  (_name, scripts) => {
    it("builds its JavaScript with build:js, then its declarations", () => {
      expect(scripts["build:js"]).toBe("tsup");
      expect(scripts.build).toMatch(/^tsup && tsc -p tsconfig\.build\.json --emitDeclarationOnly/);
    });
  },
);

describe("the shared tsup build", () => {
  it("keeps the declarations of an earlier full build when run as build:js, and empties dist/ as build", async () => {
    const { definePackageBuild } = await import("../../../tsup.shared.js");
    const cleanOf = async (script: string) => {
      const previous = process.env.npm_lifecycle_event;
      process.env.npm_lifecycle_event = script;
      try {
        return (definePackageBuild() as { clean?: unknown }).clean;
      } finally {
        if (previous === undefined) delete process.env.npm_lifecycle_event;
        else process.env.npm_lifecycle_event = previous;
      }
    };
    // tsup removes "**/*" and these patterns from dist/ before it builds (a "!" keeps a match).
    expect(await cleanOf("build:js")).toEqual(["!**/*.d.ts", "!**/*.d.ts.map"]);
    expect(await cleanOf("build")).toBe(true);
  });
});
