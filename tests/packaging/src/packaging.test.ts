import { execFile, execFileSync } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConsumerProject, createConsumerProject, NOT_INSTALLED } from "./consumer-project.js";
import {
  listPublishablePackages,
  packageDir,
  readManifest,
  resolvePackageDir,
  root,
} from "./workspace.js";

const packages = listPublishablePackages();
const installed = packages.filter((pkg) => !NOT_INSTALLED.has(pkg.manifest.name));
const tsc = join(resolvePackageDir("typescript", packageDir) as string, "bin", "tsc");

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end and reports how it ended (never throws). */
function runToEnd(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
) {
  return new Promise<Outcome>((resolve) => {
    execFile(
      command,
      args,
      { ...options, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

function writeTsconfig(dir: string, file: string, compilerOptions: Record<string, unknown>) {
  const config = {
    compilerOptions: {
      target: "es2022",
      strict: true,
      skipLibCheck: false,
      types: ["node"],
      ...compilerOptions,
    },
    include: ["src"],
  };
  writeFileSync(join(dir, file), `${JSON.stringify(config, null, 2)}\n`);
}

let project: ConsumerProject;

beforeAll(async () => {
  project = await createConsumerProject();
});

afterAll(() => {
  project?.remove();
});

describe("the packed tarballs", () => {
  it.each(packages.map((pkg) => [pkg.manifest.name, pkg] as const))(
    "%s ships LICENSE, README, dist and real version ranges",
    (name, pkg) => {
      const tarball = project.tarballs.get(name) as string;
      const files = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).trim().split("\n");
      expect(files).toEqual(
        expect.arrayContaining(["package/LICENSE", "package/README.md", "package/package.json"]),
      );
      expect(files.some((file) => /^package\/dist\/.+\.js$/.test(file))).toBe(true);
      expect(
        files.filter(
          (file) => !/^package\/(dist\/|LICENSE$|README\.md$|package\.json$)/.test(file),
        ),
      ).toEqual([]);
      const manifest = execFileSync("tar", ["-xzOf", tarball, "package/package.json"], {
        encoding: "utf8",
      });
      expect(manifest).not.toMatch(/"(workspace|catalog):/);
      for (const bin of Object.values(pkg.manifest.bin ?? {})) {
        expect(files).toContain(`package/${bin.replace(/^\.\//, "")}`);
      }
    },
  );
});

describe("a project that installs the tarballs with no registry", () => {
  it("has one zod, one patch version away from the workspace's", () => {
    expect(readManifest(join(project.dir, "node_modules", "zod")).version).toBe("4.6.6");
    for (const pkg of installed) {
      const nested = join(project.dir, "node_modules", pkg.manifest.name, "node_modules");
      expect(existsSync(nested) ? readdirSync(nested) : [], pkg.manifest.name).toEqual([]);
    }
  });

  it("type-checks every package's declarations under nodenext with skipLibCheck off", async () => {
    writeTsconfig(project.dir, "tsconfig.nodenext.json", {
      module: "nodenext",
      moduleResolution: "nodenext",
      outDir: "build",
      rootDir: "src",
    });
    const outcome = await runToEnd(process.execPath, [tsc, "-p", "tsconfig.nodenext.json"], {
      cwd: project.dir,
    });
    expect(outcome.stdout + outcome.stderr).toBe("");
    expect(outcome.code).toBe(0);
  });

  it("type-checks every package's declarations under bundler resolution", async () => {
    writeTsconfig(project.dir, "tsconfig.bundler.json", {
      module: "preserve",
      moduleResolution: "bundler",
      noEmit: true,
    });
    const outcome = await runToEnd(process.execPath, [tsc, "-p", "tsconfig.bundler.json"], {
      cwd: project.dir,
    });
    expect(outcome.stdout + outcome.stderr).toBe("");
    expect(outcome.code).toBe(0);
  });

  it("serves tools over stdio and calls them, checking plain JSON Schema input with ajv", async () => {
    const compiled = join(project.dir, "build", "call.js");
    if (!existsSync(compiled)) {
      await runToEnd(process.execPath, [tsc, "-p", "tsconfig.nodenext.json"], { cwd: project.dir });
    }
    const outcome = await runToEnd(process.execPath, [compiled], { cwd: project.dir });
    expect(outcome.stderr).toBe("");
    expect(JSON.parse(outcome.stdout)).toEqual({
      tools: ["add", "double"],
      result: { content: [{ type: "text", text: "5" }] },
      refused: {
        content: [{ type: "text", text: "Invalid arguments for tool double: /n: must be number" }],
        isError: true,
      },
    });
  });

  // Each fixture imports one client side as a browser app would; `from` is the installed file that
  // must be in the bundle, and `not` a file that must not (the Node-side entry beside it).
  it.each([
    { fixture: "browser.ts", from: "@patchbay/client/", not: undefined },
    {
      fixture: "browser-http-client.ts",
      from: "@patchbay/transport-http/dist/client.js",
      not: "@patchbay/transport-http/dist/index.js",
    },
    {
      fixture: "browser-sse-client.ts",
      from: "@patchbay/transport-sse/dist/client.js",
      not: "@patchbay/transport-sse/dist/index.js",
    },
  ])(
    "bundles $fixture for the browser with no Node built-in left",
    async ({ fixture, from, not }) => {
      const result = await build({
        absWorkingDir: project.dir,
        entryPoints: [`src/${fixture}`],
        bundle: true,
        platform: "browser",
        format: "esm",
        minify: true,
        write: false,
        metafile: true,
        logLevel: "silent",
      });
      const inputs = Object.keys(result.metafile.inputs);
      expect(inputs.some((input) => input.includes(from))).toBe(true);
      if (not !== undefined) expect(inputs.filter((input) => input.includes(not))).toEqual([]);
      const imports = Object.values(result.metafile.inputs).flatMap((input) => input.imports);
      expect(imports.filter((entry) => entry.external).map((entry) => entry.path)).toEqual([]);
      const text = result.outputFiles[0]?.text ?? "";
      expect(text).not.toMatch(/\bnode:[a-z_]+/);
      // The size goes to the package READMEs; printed here so that a run shows it.
      console.log(`${fixture}: ${text.length} bytes minified, ${gzipSync(text).length} gzipped`);
    },
  );

  it("drops every module of @patchbay/mcp-types but the one a program imports", async () => {
    const result = await build({
      absWorkingDir: project.dir,
      stdin: {
        contents:
          'import { LATEST_LEGACY_PROTOCOL_VERSION } from "@patchbay/mcp-types";\nconsole.log(LATEST_LEGACY_PROTOCOL_VERSION);\n',
        resolveDir: project.dir,
      },
      bundle: true,
      platform: "neutral",
      format: "esm",
      minify: true,
      write: false,
      metafile: true,
    });
    // esbuild parses every module it reaches; what counts is which of them put bytes in the output.
    const [output] = Object.values(result.metafile.outputs);
    const contributing = Object.entries(output?.inputs ?? {})
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([path]) => path);
    expect(contributing.filter((path) => path.includes("node_modules/zod/"))).toEqual([]);
    const text = result.outputFiles[0]?.text ?? "";
    expect(text).toContain('"2025-11-25"');
    expect(text.length).toBeLessThan(100);
  });

  it("runs npx patchbay-gateway --version from the installed tarball", async () => {
    const outcome = await runToEnd("npx", ["--offline", "patchbay-gateway", "--version"], {
      cwd: project.dir,
      env: project.env,
    });
    expect(outcome).toMatchObject({
      code: 0,
      stdout: `${readManifest(join(root, "apps", "gateway")).version}\n`,
    });
  });
});
