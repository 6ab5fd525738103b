import { spawn } from "node:child_process";
import {
  copyFileSync,
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

// The contract-tests README's third-party guide, tried as a new user would: packed tarballs,
// installed into a fresh project outside the repository with `pnpm add --offline` (from the local
// store, never the network), the guide's test files copied in, and vitest run there.

const here = dirname(fileURLToPath(import.meta.url));
const packages = join(here, "..", "..", "..", "packages");
/** The version the workspace's pnpm catalog pins for `name`: what the trial project installs. */
function catalogVersion(name: string): string {
  const catalog = readFileSync(join(here, "..", "..", "..", "pnpm-workspace.yaml"), "utf8");
  const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const match = new RegExp(`^\\s+"?${escaped}"?: (\\S+)$`, "m").exec(catalog);
  if (match?.[1] === undefined) throw new Error(`${name} is not in the pnpm catalog`);
  return match[1];
}
const vitestVersion = catalogVersion("vitest");
const sdkVersion = catalogVersion("@modelcontextprotocol/sdk");
const zodVersion = catalogVersion("zod");
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

function tarball(name: string): string {
  const file = readdirSync(project).find((entry) => entry.startsWith(`patchbay-${name}-`));
  if (file === undefined) throw new Error(`no tarball for ${name}`);
  return `./${file}`;
}

interface Report {
  numFailedTests: number;
  numPassedTests: number;
  numPendingTests: number;
  testResults: { name: string; assertionResults: { title: string; status: string }[] }[];
}

describe("the third-party guide, from tarballs in a fresh project", () => {
  it("installs one package (plus its jsonrpc-core) and vitest, and the guide's test files pass", async () => {
    for (const name of ["jsonrpc-core", "contract-tests", "transport-stdio"]) {
      await run("pnpm", ["pack", "--pack-destination", project], join(packages, name));
    }
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({ name: "my-transport", private: true, type: "module" }),
    );
    // Unpublished here, so jsonrpc-core, which contract-tests depends on, comes from its tarball too.
    writeFileSync(
      join(project, "pnpm-workspace.yaml"),
      `overrides:\n  "@patchbay/jsonrpc-core": "file:${tarball("jsonrpc-core")}"\n`,
    );
    await run(
      "pnpm",
      [
        "add",
        "--offline",
        tarball("jsonrpc-core"),
        tarball("contract-tests"),
        tarball("transport-stdio"),
        `vitest@${vitestVersion}`,
        // For the HTTP example, which tests the official SDK's transports.
        `@modelcontextprotocol/sdk@${sdkVersion}`,
        `zod@${zodVersion}`,
      ],
      project,
    );
    const installed = readdirSync(join(project, "node_modules", ".pnpm"));
    expect(installed.some((entry) => entry.startsWith("@patchbay+client"))).toBe(false);

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
