// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are config values with ${VAR} references, not templates
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GatewayConfigError } from "../index.js";
import { loadConfigFile } from "./load-config-file.js";

const directories: string[] = [];

afterEach(() => {
  for (const directory of directories.splice(0))
    rmSync(directory, { recursive: true, force: true });
});

function file(name: string, text: string): string {
  const directory = mkdtempSync(join(tmpdir(), "patchbay-config-"));
  directories.push(directory);
  const path = join(directory, name);
  writeFileSync(path, text);
  return path;
}

async function issuesOf(path: string) {
  const error = await loadConfigFile(path, {}).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(GatewayConfigError);
  return (error as GatewayConfigError).issues;
}

describe("loadConfigFile", () => {
  it("reads JSON and expands variables from the environment", async () => {
    const path = file("gateway.json", '{"mcpServers": {"a": {"command": "${CMD:-node}"}}}');
    const { config } = await loadConfigFile(path, {});
    expect(config.backends[0]).toMatchObject({ command: "node" });
  });

  it("reads YAML for .yaml and .yml files", async () => {
    const path = file("gateway.yml", "mcpServers:\n  a:\n    command: ${CMD}\n");
    const { config } = await loadConfigFile(path, { CMD: "python" });
    expect(config.backends[0]).toMatchObject({ command: "python" });
  });

  it("reports invalid JSON as a config error naming the file", async () => {
    const path = file("gateway.json", "{ nope");
    const error = (await loadConfigFile(path, {}).catch((caught: unknown) => caught)) as Error;
    expect(error.message).toContain(path);
    expect((await issuesOf(path))[0]?.message).toMatch(/^not valid JSON/);
  });

  it("locates invalid JSON by line and column", async () => {
    const path = file("gateway.json", '{\n  "mcpServers": {\n    "a": { "command": yes }\n  }\n}');
    expect((await issuesOf(path))[0]?.message).toBe(
      "not valid JSON at line 3, column 23: Unexpected token 'y'",
    );
  });

  it("reports invalid YAML", async () => {
    expect((await issuesOf(file("gateway.yaml", "mcpServers: [\n")))[0]?.message).toMatch(
      /^not valid YAML/,
    );
  });

  it("reports a file it cannot read", async () => {
    expect((await issuesOf("/nonexistent/gateway.json"))[0]?.message).toMatch(
      /^cannot read the file/,
    );
  });

  it("drops the blocks it is told to ignore unread, with one warning naming them", async () => {
    const path = file(
      "proxy.json",
      JSON.stringify({
        mcpServers: { s: { command: "node" } },
        profiles: { team: { servers: ["s"] } },
        auth: { tokens: [{ name: "a", token: "${UNSET_TOKEN}" }] },
      }),
    );
    const ignoreBlocks = { names: ["auth", "profiles"], readBy: "patchbay-proxy" };
    const { config, warnings } = await loadConfigFile(path, {}, { ignoreBlocks });
    expect(config.backends.map((backend) => backend.name)).toEqual(["s"]);
    expect(config.profiles).toEqual({});
    expect((config as { auth?: unknown }).auth).toBeUndefined();
    expect(warnings).toEqual([
      "auth, profiles: read by patchbay-proxy only; ignored here (not expanded, not checked)",
    ]);
    // Read without ignoring them, the same file names its problem.
    expect((await issuesOf(path)).map((issue) => issue.path)).toContain("auth.tokens[0].token");
  });
});
