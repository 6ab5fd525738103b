// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are config values with ${VAR} references, not templates
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROXY_CONFIG_BLOCKS } from "@patchbay/http-gateway";
import { GatewayConfigError, parseGatewayConfig } from "@patchbay/router";
import { loadConfigFile } from "@patchbay/router/config-file";
import { afterEach, describe, expect, it } from "vitest";
import { PROXY_ONLY_BLOCKS } from "./proxy-blocks.js";

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

describe("loadConfigFile with the proxy's blocks ignored (the stdio gateway)", () => {
  it("drops the proxy's blocks unread, with one warning naming them", async () => {
    const path = file(
      "proxy.json",
      JSON.stringify({
        mcpServers: { s: { command: "node" } },
        profiles: { team: { servers: ["s"] } },
        auth: { tokens: [{ name: "a", token: "${UNSET_TOKEN}" }] },
      }),
    );
    const { config, warnings } = await loadConfigFile(
      path,
      {},
      { ignoreBlocks: PROXY_ONLY_BLOCKS },
    );
    expect(config.backends.map((backend) => backend.name)).toEqual(["s"]);
    expect(config.profiles).toEqual({});
    expect((config as { auth?: unknown }).auth).toBeUndefined();
    expect(warnings).toEqual([
      "auth, profiles: read by patchbay-proxy only; ignored here (not expanded, not checked)",
    ]);
    // Read without ignoring them, the same file names its problem.
    expect((await issuesOf(path)).map((issue) => issue.path)).toContain("auth.tokens[0].token");
  });

  it("runs a proxy's file with a misspelt auth key, warning as it always did", () => {
    const { config, warnings } = parseGatewayConfig(
      {
        mcpServers: { s: { command: "node" } },
        auth: { tokns: [{ name: "ci", token: "0123456789abcdef-ci" }] },
        http: { trustProxies: true },
        limits: { maxSessions: 3, tools: { "s__*": { concurrent: 1 } } },
      },
      { ignoreBlocks: PROXY_ONLY_BLOCKS },
    );
    expect(config.limits).toEqual({ tools: { "s__*": { concurrent: 1 } } });
    expect(warnings).toEqual([
      "auth, limits (but limits.tools), http: read by patchbay-proxy only; ignored here (not expanded, not checked)",
    ]);
  });
});

describe("the blocks this app ignores", () => {
  it("name every block the HTTP proxy adds to the router's config", () => {
    // Named here, not imported (the app does not depend on the HTTP front): a block added to the
    // proxy and not named here would be an unknown key to this app, or refuse an unset ${VAR}.
    expect(PROXY_ONLY_BLOCKS.names).toEqual(
      expect.arrayContaining(Object.keys(PROXY_CONFIG_BLOCKS)),
    );
  });
});
