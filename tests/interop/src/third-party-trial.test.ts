import { spawn } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  deriveTrialLockfile,
  integrityOf,
  type LocalTarball,
  type PackedManifest,
  readWorkspaceLockfile,
} from "./trial-lockfile.js";

// The contract-tests README's third-party guide, tried as a new user would: packed tarballs,
// installed into a fresh project outside the repository, the guide's test files copied in, and
// vitest run there. The project installs with `pnpm install --frozen-lockfile --offline` from a
// lockfile derived from the workspace's (trial-lockfile.ts): every registry package, transitive ones
// included, is the version the workspace pins, so nothing is resolved at test time and the outcome
// does not depend on what the registry published since, or on what this machine's store holds
// beyond the workspace's own install.

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..", "..");
const packages = join(root, "packages");
const workspace = readWorkspaceLockfile(join(root, "pnpm-lock.yaml"));
const project = mkdtempSync(join(tmpdir(), "contract-tests-trial-"));

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

function run(command: string, args: readonly string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    const output: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => output.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => output.push(chunk));
    child.once("error", reject);
    child.once("exit", (code) => {
      const text = Buffer.concat(output).toString("utf8");
      if (code === 0) resolve(text);
      else reject(new Error(`${command} ${args.join(" ")} exited with ${code}:\n${text}`));
    });
  });
}

/** Packs a workspace package into the project; the tarball's file name and packed manifest. */
async function pack(name: string): Promise<LocalTarball> {
  const output = await run("pnpm", ["pack", "--pack-destination", project], join(packages, name));
  const file = basename(output.trim().split("\n").at(-1) as string);
  const manifest = JSON.parse(
    await run("tar", ["-xzOf", file, "package/package.json"], project),
  ) as PackedManifest;
  return { file, manifest, importer: `packages/${name}` };
}

/** `name@version` of every package installed under the project's node_modules/.pnpm. */
function installedPackages(): string[] {
  const virtualStore = join(project, "node_modules", ".pnpm");
  const found: string[] = [];
  for (const entry of readdirSync(virtualStore)) {
    const modules = join(virtualStore, entry, "node_modules");
    if (!existsSync(modules)) continue;
    for (const name of readdirSync(modules)) {
      const names = name.startsWith("@")
        ? readdirSync(join(modules, name)).map((inner) => `${name}/${inner}`)
        : [name];
      for (const full of names) {
        const manifestPath = join(modules, full, "package.json");
        // Links to a package's dependencies are its siblings; only the entry's own package counts.
        if (!entry.startsWith(`${full.replace("/", "+")}@`) || !existsSync(manifestPath)) continue;
        const { version } = JSON.parse(readFileSync(manifestPath, "utf8")) as { version: string };
        found.push(`${full}@${version}`);
      }
    }
  }
  return found;
}

interface Report {
  numFailedTests: number;
  numPassedTests: number;
  numPendingTests: number;
  testResults: { name: string; assertionResults: { title: string; status: string }[] }[];
}

describe("the third-party guide, from tarballs in a fresh project", () => {
  it("installs one package (plus its jsonrpc-core) and vitest, and the guide's test files pass", async () => {
    const tarballs: LocalTarball[] = [];
    for (const name of ["jsonrpc-core", "contract-tests", "transport-stdio"]) {
      tarballs.push(await pack(name));
    }
    const trial = deriveTrialLockfile({
      workspace,
      registry: [
        { name: "vitest", importer: "tests/interop" },
        // For the HTTP example, which tests the official SDK's transports.
        { name: "@modelcontextprotocol/sdk", importer: "tests/interop" },
        { name: "zod", importer: "tests/interop" },
      ],
      tarballs,
      integrity: (file) => integrityOf(join(project, file)),
      overrides: {},
    });
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({
        name: "my-transport",
        private: true,
        type: "module",
        dependencies: trial.dependencies,
      }),
    );
    writeFileSync(join(project, "pnpm-lock.yaml"), trial.lockfile);
    // As in the workspace: esbuild's install script links the binary its npm package ships.
    writeFileSync(join(project, "pnpm-workspace.yaml"), "allowBuilds:\n  esbuild: true\n");
    await run("pnpm", ["install", "--frozen-lockfile", "--offline"], project);

    // What landed on disk is what the workspace pins: a version resolved afresh would not be there.
    const pinned = new Set(Object.keys(workspace.packages));
    const installed = installedPackages();
    const registryInstalled = installed.filter((id) => !id.startsWith("@patchbay/"));
    expect(registryInstalled.filter((id) => !pinned.has(id))).toEqual([]);
    for (const name of ["vitest", "vite", "fast-check", "@modelcontextprotocol/sdk", "zod"]) {
      expect(registryInstalled.some((id) => id.startsWith(`${name}@`))).toBe(true);
    }
    expect(installed.some((id) => id.startsWith("@patchbay/client@"))).toBe(false);

    for (const file of ["memory.contract.ts", "stdio.contract.ts"]) {
      copyFileSync(join(here, "third-party", file), join(project, file.replace(".ts", ".test.ts")));
    }
    for (const file of ["sdk-http.contract.test.ts", "sdk-http-pair.ts", "sdk-defects.ts"]) {
      copyFileSync(join(here, file), join(project, file));
    }
    await run(
      "pnpm",
      ["exec", "vitest", "run", "--reporter=json", "--outputFile=report.json"],
      project,
    );
    const report = JSON.parse(readFileSync(join(project, "report.json"), "utf8")) as Report;
    const titles = report.testResults.flatMap((file) => file.assertionResults);
    expect(report.numFailedTests).toBe(0);
    const passedPerFile = Object.fromEntries(
      report.testResults.map((file) => [
        basename(file.name),
        file.assertionResults.filter((result) => result.status === "passed").length > 20,
      ]),
    );
    expect(passedPerFile).toEqual({
      "memory.contract.test.ts": true,
      "stdio.contract.test.ts": true,
      "sdk-http.contract.test.ts": true,
    });
    expect(titles.map((result) => result.title)).toEqual(
      expect.arrayContaining([
        expect.stringContaining("[not applicable: frames move by reference, never as text]"),
        expect.stringContaining("[known failure: SDK defect: StreamableHTTPClientTransport"),
      ]),
    );
  }, 240_000);
});
