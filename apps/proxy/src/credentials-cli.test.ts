import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCredentialsCommand } from "./credentials-cli.js";

const SECRET = "value-that-must-never-be-printed";

describe("patchbay-proxy credentials", { timeout: 5_000 }, () => {
  let folder: string;
  let configPath: string;
  let output: string;
  const environment = { PATCHBAY_CREDENTIALS_KEY: randomBytes(32).toString("hex") };
  const run = (args: readonly string[], stdin = "") =>
    runCredentialsCommand(args, {
      environment,
      readStdin: async () => stdin,
      write: (text) => {
        output += text;
      },
    });

  beforeEach(() => {
    output = "";
    folder = mkdtempSync(join(tmpdir(), "patchbay-credentials-cli-"));
    configPath = join(folder, "proxy.json");
    writeFileSync(
      configPath,
      JSON.stringify({
        mcpServers: {
          gh: {
            url: "http://127.0.0.1:1/mcp",
            isolation: "per-principal",
            credentials: { headers: { Authorization: "Bearer {{token}}" } },
          },
          open: { url: "http://127.0.0.1:1/mcp" },
          signsIn: { url: "http://127.0.0.1:1/mcp", isolation: "per-principal", oauth: {} },
        },
        credentials: { file: "store.json" },
      }),
    );
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it("stores, lists and deletes without ever printing a value", async () => {
    expect(await run(["set", "--config", configPath, "alice", "gh", "token"], `${SECRET}\n`)).toBe(
      0,
    );
    expect(await run(["list", "--config", configPath])).toBe(0);
    expect(await run(["delete", "--config", configPath, "alice", "gh"])).toBe(0);
    expect(await run(["delete", "--config", configPath, "alice", "gh"])).toBe(1);
    expect(output).toBe(
      "stored token of gh for alice\nalice\tgh\ttoken\ndeleted 1 value of gh for alice\ndeleted 0 values of gh for alice\n",
    );
    expect(readFileSync(join(folder, "store.json"), "utf8")).not.toContain(SECRET);
  });

  it("refuses what no principal could use, naming why", async () => {
    const set = (args: string[], stdin = SECRET) =>
      run(["set", "--config", configPath, ...args], stdin);
    await expect(set(["alice", "open", "token"])).rejects.toThrow(
      "open is not a per-principal backend of this config",
    );
    await expect(set(["alice", "signsIn", "access_token"])).rejects.toThrow(
      "signsIn signs in with OAuth: each principal connects on the link a call to one of its tools gives (credentials delete disconnects one)",
    );
    await expect(set(["alice", "gh", "password"])).rejects.toThrow(
      "gh has no slot password (its slots: token)",
    );
    await expect(set(["anonymous", "gh", "token"])).rejects.toThrow(/anonymous callers/);
    await expect(set(["alice", "gh", "token"], "\n")).rejects.toThrow("no value on stdin");
    await expect(set(["alice", "gh", "token", SECRET])).rejects.toThrow(/value on stdin/);
    await expect(
      runCredentialsCommand(["list", "--config", configPath], {
        environment: {},
        readStdin: async () => "",
        write: () => {},
      }),
    ).rejects.toThrow(/PATCHBAY_CREDENTIALS_KEY is not set/);
    expect(output).toBe("");
  });

  it("refuses import without a cluster, and a cluster without its secret before reaching Redis", async () => {
    await expect(run(["import", "--config", configPath])).rejects.toThrow(
      "import copies the file into a cluster's Redis: the config has no cluster",
    );
    // A Redis nobody listens on: the secret is checked first, so the message is about the secret.
    await expect(
      run(["list", "--config", configPath, "--redis", "redis://127.0.0.1:1"]),
    ).rejects.toThrow(/secret/);
    expect(output).toBe("");
  });
});
