// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config values with ${VAR} references
import { GatewayConfigError, parseConfigText } from "@patchbay/router";
import { describe, expect, it } from "vitest";
import { PROXY_CONFIG_BLOCKS } from "./parse-proxy-config.js";

function errorOf(run: () => unknown): GatewayConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof GatewayConfigError) return error;
    throw error;
  }
  throw new Error("expected a GatewayConfigError");
}

describe("proxy keys", () => {
  it("keeps auth and limits, expanding variables in tokens", () => {
    const { config, warnings } = parseConfigText(
      JSON.stringify({
        mcpServers: { a: { command: "x" } },
        profiles: { team: { servers: ["a"] } },
        auth: { tokens: [{ name: "ci", token: "${CI_TOKEN}", profiles: ["team"] }] },
        limits: { requestsPerMinute: 60, maxBodyBytes: 1024, maxSessionsPerIdentity: 3 },
      }),
      "json",
      { environment: { CI_TOKEN: "0123456789abcdef0123" }, blocks: PROXY_CONFIG_BLOCKS },
    );
    expect(warnings).toEqual([]);
    expect(config.auth?.tokens?.[0]).toEqual({
      name: "ci",
      token: "0123456789abcdef0123",
      profiles: ["team"],
    });
    expect(config.limits).toEqual({
      requestsPerMinute: 60,
      maxBodyBytes: 1024,
      maxSessionsPerIdentity: 3,
    });
    expect(config.profiles.team?.backends).toEqual(["a"]);
  });

  it("refuses a token entry with neither token nor sha256, and a misspelt limit", () => {
    const error = errorOf(() =>
      parseConfigText(
        JSON.stringify({
          mcpServers: {},
          auth: { tokens: [{ name: "ci" }] },
          limits: { requestsPerMinut: 5, maxSessions: 0 },
        }),
        "json",
        { blocks: PROXY_CONFIG_BLOCKS },
      ),
    );
    expect(error.message).toContain('auth.tokens[0]: expected either "token" or "sha256"');
    expect(error.message).toContain(
      "limits.requestsPerMinut: unknown key requestsPerMinut; did you mean requestsPerMinute?",
    );
  });
});
