// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are config values with ${VAR} references, not templates
import { describe, expect, it } from "vitest";
import { parseGatewayConfig } from "./parse-gateway-config.js";
import {
  collectConfigSecrets,
  REDACTED,
  redactArgs,
  redactGatewayConfig,
  redactUrl,
} from "./redact-config.js";

describe("redactGatewayConfig", () => {
  it("masks env values, header values and URL credentials but keeps the shape", () => {
    const { config } = parseGatewayConfig({
      mcpServers: {
        gh: {
          command: "gh-mcp",
          args: ["--token", "abc", "--verbose"],
          env: { GITHUB_TOKEN: "abc" },
        },
        web: {
          url: "https://user:pw@example.com/mcp?key=abc",
          headers: { Authorization: "Bearer abc" },
        },
      },
    });
    const shown = redactGatewayConfig(config);
    const text = JSON.stringify(shown);
    expect(text).not.toContain("abc");
    expect(text).not.toContain("pw");
    expect(shown.mcpServers).toMatchObject({
      gh: {
        command: "gh-mcp",
        args: ["--token", REDACTED, "--verbose"],
        env: { GITHUB_TOKEN: REDACTED },
      },
      web: { headers: { Authorization: REDACTED } },
    });
  });
});

describe("redactArgs", () => {
  it("masks secret-looking --flag=value pairs and leaves others", () => {
    expect(redactArgs(["--api-key=1", "--port=3", "/path"])).toEqual([
      `--api-key=${REDACTED}`,
      "--port=3",
      "/path",
    ]);
  });

  it("masks a header given as one argument, NAME=value pairs and URL credentials", () => {
    expect(
      redactArgs([
        "--header",
        "Authorization: Bearer tok-123456",
        "-e",
        "GITHUB_TOKEN=ghp_abcdef",
        "https://me:pw-1234@host.example/sse?api_key=k-55555",
      ]),
    ).toEqual([
      "--header",
      `Authorization: ${REDACTED}`,
      "-e",
      `GITHUB_TOKEN=${REDACTED}`,
      `https://${REDACTED}@host.example/sse?api_key=${REDACTED}`,
    ]);
  });
});

describe("collectConfigSecrets", () => {
  it("collects expanded variables, env values, secret headers, URL and argument credentials", () => {
    const { config } = parseGatewayConfig(
      {
        mcpServers: {
          gh: {
            command: "gh-mcp",
            args: ["--header", "Authorization: Bearer arg-token-1", "--token", "arg-token-2"],
            env: { GITHUB_TOKEN: "env-value-1", PLAIN: "${FROM_ENV}" },
          },
          web: {
            url: "https://user-1:p%40ss-word@example.com/mcp?api_key=query-key-1&page=22222",
            headers: { "X-Api-Key": "header-key-1", Accept: "application/json" },
          },
        },
      },
      { environment: { FROM_ENV: "expanded-value-1" } },
    );
    const secrets = collectConfigSecrets(config);
    for (const expected of [
      "arg-token-1",
      "arg-token-2",
      "env-value-1",
      "expanded-value-1",
      "user-1",
      "p@ss-word",
      "p%40ss-word",
      "query-key-1",
      "header-key-1",
    ]) {
      expect(secrets).toContain(expected);
    }
    expect(secrets).not.toContain("application/json");
    expect(secrets).not.toContain("22222");
  });
});

describe("redactUrl", () => {
  it("masks an unparseable URL whole", () => {
    expect(redactUrl("::")).toBe(REDACTED);
  });
});
