// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are config values with ${VAR} references, not templates
import { describe, expect, it } from "vitest";
import { GatewayConfigError } from "./gateway-config-error.js";
import { parseGatewayConfig } from "./parse-gateway-config.js";
import { collectConfigSecrets, redactBackendConfig } from "./redact-config.js";

function issuesOf(value: unknown): { path: string; message: string }[] {
  try {
    parseGatewayConfig(value, { environment: {} });
  } catch (error) {
    if (error instanceof GatewayConfigError) return [...error.issues];
    throw error;
  }
  throw new Error("expected the config to be rejected");
}

describe("the oauth block of a remote backend", () => {
  it("is kept with its client, scopes and redirect port; the secret comes from ${VAR}", () => {
    const { config } = parseGatewayConfig(
      {
        mcpServers: {
          remote: {
            url: "https://tools.example.com/mcp",
            oauth: {
              clientId: "patchbay",
              clientSecret: "${CLIENT_SECRET}",
              scopes: ["mcp:read", "mcp:write"],
              redirectPort: 8765,
            },
          },
        },
      },
      { environment: { CLIENT_SECRET: "s3cret-value-0123" } },
    );
    const backend = config.backends[0];
    expect(backend).toMatchObject({
      transport: "auto",
      oauth: {
        clientId: "patchbay",
        clientSecret: "s3cret-value-0123",
        scopes: ["mcp:read", "mcp:write"],
        redirectPort: 8765,
      },
    });
    expect(collectConfigSecrets(config)).toContain("s3cret-value-0123");
    expect(
      JSON.stringify(redactBackendConfig(backend as NonNullable<typeof backend>)),
    ).not.toContain("s3cret-value-0123");
  });

  it("is refused beside command or a ws:// url, with a secret but no client id, and with an http metadata URL", () => {
    expect(
      issuesOf({
        mcpServers: {
          local: { command: "server", oauth: {} },
          socket: { url: "ws://127.0.0.1:9000/mcp", oauth: {} },
          secretOnly: { url: "https://a.example.com/mcp", oauth: { clientSecret: "x" } },
          plainMetadata: {
            url: "https://b.example.com/mcp",
            oauth: { clientMetadataUrl: "http://b.example.com/client.json" },
          },
        },
      }).map((issue) => issue.path),
    ).toEqual(["mcpServers.plainMetadata.oauth.clientMetadataUrl"]);
    expect(
      issuesOf({
        mcpServers: {
          local: { command: "server", oauth: {} },
          socket: { url: "ws://127.0.0.1:9000/mcp", oauth: {} },
          secretOnly: { url: "https://a.example.com/mcp", oauth: { clientSecret: "x" } },
        },
      }),
    ).toEqual([
      {
        path: "mcpServers.local.oauth",
        message: 'oauth applies to a server with an http(s) "url" only',
      },
      {
        path: "mcpServers.socket.oauth",
        message: 'oauth applies to a server with an http(s) "url" only',
      },
      {
        path: "mcpServers.secretOnly.oauth.clientSecret",
        message: "a clientSecret needs its clientId",
      },
    ]);
  });
});
