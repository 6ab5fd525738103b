import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { closeSdk, connectSdk, proxyCli, sampleEntry, startCli } from "./proxy-helpers.js";

const { version } = JSON.parse(
  readFileSync(new URL("../package.json", import.meta.url), "utf8"),
) as { version: string };
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("patchbay-proxy's version, the package's", () => {
  it("is a release, not 0.0.0", () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    expect(version).not.toBe("0.0.0");
  });

  it("is what --version prints", async () => {
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, [proxyCli, "--version"], (error, out) =>
        error ? reject(error) : resolve(out),
      );
    });
    expect(stdout).toBe(`${version}\n`);
  });

  it("is what serverInfo and the dashboard say", async () => {
    const url = await startCli(cleanups, { mcpServers: { sample: sampleEntry() } });
    const connected = await connectSdk(url);
    cleanups.push(() => closeSdk(connected));
    expect(connected.client.getServerVersion()).toMatchObject({ name: "patchbay-proxy", version });
    const snapshot = await fetch(new URL("/dashboard/api/snapshot", url));
    expect(snapshot.status).toBe(200);
    expect(((await snapshot.json()) as { server: { version: string } }).server.version).toBe(
      version,
    );
  });
});
