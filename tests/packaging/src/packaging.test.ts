import { execFile, execFileSync } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
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

/** Runs a command to its end, with `input` on its stdin, and reports how it ended (never throws). */
/** One `initialize` request as a stdio line, for the installed bins. */
const INITIALIZE_LINE = `${JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "packaging", version: "1" },
  },
})}\n`;

function runToEnd(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; input?: string },
) {
  const { input, ...spawnOptions } = options;
  return new Promise<Outcome>((resolve) => {
    const child = execFile(
      command,
      args,
      { ...spawnOptions, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end(input ?? "");
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

  // Its bin is one bundle (the @patchbay packages and zod inside) importing ws, eventsource-parser
  // and ajv, which the package must then depend on itself: here they resolve from an npm install.
  it("answers initialize over stdio with the installed sample backend's bundled bin", async () => {
    const bin = join(project.dir, "node_modules", "@patchbay", "sample-backend", "dist", "bin.js");
    const outcome = await runToEnd(process.execPath, [bin, "--transport", "stdio"], {
      cwd: project.dir,
      input: INITIALIZE_LINE,
    });
    expect(outcome.stderr).toBe("");
    expect(JSON.parse(outcome.stdout)).toMatchObject({
      id: 1,
      result: { serverInfo: { name: "patchbay-sample-backend" } },
    });
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      // Loads the WebSocket server (ws) before it finds the port taken.
      const ws = await runToEnd(process.execPath, [bin, "--transport", "ws", "--port", `${port}`], {
        cwd: project.dir,
      });
      expect(ws).toMatchObject({ code: 1, stderr: expect.stringContaining("is in use") });
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  // The gateway's bin is one bundle too: its imports of ws, eventsource-parser, oauth4webapi, yaml
  // and ajv must resolve from an npm install (they load as the gateway starts, before it answers).
  it("answers initialize over stdio with the installed gateway's bundled bin", async () => {
    const bin = join(project.dir, "node_modules", "@patchbay", "gateway", "dist", "cli.js");
    const config = join(project.dir, "gateway.json");
    writeFileSync(config, JSON.stringify({ mcpServers: {} }));
    const outcome = await runToEnd(
      process.execPath,
      [bin, "--config", config, "--log-level", "error"],
      { cwd: project.dir, input: INITIALIZE_LINE },
    );
    expect(outcome.stderr).toBe("");
    expect(JSON.parse(outcome.stdout)).toMatchObject({
      id: 1,
      result: { serverInfo: { name: "patchbay-gateway" } },
    });
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
