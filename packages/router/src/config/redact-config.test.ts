import { describe, expect, it } from "vitest";
import { parseGatewayConfig } from "./parse-gateway-config.js";
import { REDACTED, redactArgs, redactGatewayConfig, redactUrl } from "./redact-config.js";

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
});

describe("redactUrl", () => {
  it("masks an unparseable URL whole", () => {
    expect(redactUrl("::")).toBe(REDACTED);
  });
});
