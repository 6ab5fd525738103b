// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are config values with ${VAR} references, not templates
import { PROXY_CONFIG_BLOCKS } from "@patchbay/http-gateway";
import { GatewayConfigError, parseGatewayConfig } from "@patchbay/router";
import { describe, expect, it } from "vitest";
import { PROXY_ONLY_BLOCKS } from "./proxy-blocks.js";

describe("the stdio gateway's config with the proxy's blocks ignored", () => {
  it("drops the proxy's blocks unread, with one warning naming them", () => {
    const file = {
      mcpServers: { s: { command: "node" } },
      profiles: { team: { servers: ["s"] } },
      auth: { tokens: [{ name: "a", token: "${UNSET_TOKEN}" }] },
    };
    const { config, warnings } = parseGatewayConfig(file, { ignoreBlocks: PROXY_ONLY_BLOCKS });
    expect(config.backends.map((backend) => backend.name)).toEqual(["s"]);
    expect(config.profiles).toEqual({});
    expect((config as { auth?: unknown }).auth).toBeUndefined();
    expect(warnings).toEqual([
      "auth, profiles: read by patchbay-proxy only; ignored here (not expanded, not checked)",
    ]);
    // Read without ignoring them, the same file names its problem.
    let error: unknown;
    try {
      parseGatewayConfig(file);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(GatewayConfigError);
    const paths = (error as GatewayConfigError).issues.map((issue) => issue.path);
    expect(paths).toContain("auth.tokens[0].token");
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
