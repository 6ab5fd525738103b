import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { createClient } from "@patchbay/client";
import { createStdioClientTransport } from "@patchbay/transport-stdio";
import { describe, expect, it } from "vitest";

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const { version } = JSON.parse(
  readFileSync(new URL("../package.json", import.meta.url), "utf8"),
) as { version: string };

/** Runs the built bin to its end. */
function runBin(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr });
    });
  });
}

describe("patchbay-sample-backend", () => {
  it.each([["-h"], ["--help"]])("prints the usage to stdout for %s and exits 0", async (flag) => {
    const outcome = await runBin([flag]);
    expect(outcome).toMatchObject({ code: 0, stderr: "" });
    expect(outcome.stdout).toMatch(/^Usage: patchbay-sample-backend /);
    expect(outcome.stdout).toContain("--version");
    expect(outcome.stdout).toContain("--protocol-versions");
  });

  it("prints its version for --version and exits 0", async () => {
    expect(version).not.toBe("0.0.0");
    expect(await runBin(["--version"])).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
  });

  it("says the same version in serverInfo", async () => {
    const client = createClient({ name: "cli-test", version: "1.0.0" });
    const transport = createStdioClientTransport({
      command: process.execPath,
      args: [bin, "--transport", "stdio"],
      stderr: "ignore",
    });
    try {
      const { serverInfo } = await client.connect(transport);
      expect(serverInfo).toMatchObject({ name: "patchbay-sample-backend", version });
    } finally {
      await client.close();
      await transport.close();
    }
  });

  it.each([["http"], ["sse"], ["ws"]])(
    "says in one line that its port is in use over %s, and exits 1",
    async (transport) => {
      const holder = createServer();
      await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
      const { port } = holder.address() as { port: number };
      try {
        const outcome = await runBin(["--transport", transport, "--port", String(port)]);
        expect(outcome).toEqual({
          code: 1,
          stdout: "",
          stderr: `patchbay-sample-backend: port ${port} on 127.0.0.1 is in use; pass --port <another port> (0 picks a free one)\n`,
        });
      } finally {
        await new Promise((resolve) => holder.close(resolve));
      }
    },
  );

  it("names a bad argument on stderr, with the usage, and exits 2", async () => {
    const outcome = await runBin(["--verbose"]);
    expect(outcome).toMatchObject({ code: 2, stdout: "" });
    expect(outcome.stderr).toMatch(/^Unknown option '--verbose'/);
    expect(outcome.stderr).toContain("Usage: patchbay-sample-backend");
  });
});
