// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are config values with ${VAR} references, not templates
import { describe, expect, it } from "vitest";
import { parseGatewayConfig } from "./parse-gateway-config.js";
import { collectConfigSecrets, REDACTED, redactGatewayConfig } from "./redact-config.js";

const otlpConfig = {
  mcpServers: { echo: { command: "node", args: ["echo.js"] } },
  telemetry: {
    otlp: {
      endpoint: "http://127.0.0.1:4318",
      headers: { "x-api-key": "${OTLP_KEY}", "x-tenant": "team-a" },
      serviceName: "edge-gateway",
      protocol: "http/json",
    },
  },
};

describe("telemetry.otlp", () => {
  it("is parsed with its headers, service name and protocol", () => {
    const { config, warnings } = parseGatewayConfig(otlpConfig, {
      environment: { OTLP_KEY: "otlp-key-value" },
    });
    expect(warnings).toEqual([]);
    expect(config.telemetry.otlp).toEqual({
      endpoint: "http://127.0.0.1:4318",
      headers: { "x-api-key": "otlp-key-value", "x-tenant": "team-a" },
      serviceName: "edge-gateway",
      protocol: "http/json",
    });
  });

  it("refuses an endpoint that is not an http(s) URL and an unknown protocol", () => {
    expect(() =>
      parseGatewayConfig({ mcpServers: {}, telemetry: { otlp: { endpoint: "grpc://collector" } } }),
    ).toThrow(/telemetry\.otlp\.endpoint/);
    expect(() =>
      parseGatewayConfig({
        mcpServers: {},
        telemetry: { otlp: { endpoint: "http://127.0.0.1:4318", protocol: "grpc" } },
      }),
    ).toThrow(/telemetry\.otlp\.protocol/);
  });

  it("never shows its header values or endpoint credentials, and masks them everywhere", () => {
    const { config } = parseGatewayConfig(
      {
        ...otlpConfig,
        telemetry: {
          otlp: { ...otlpConfig.telemetry.otlp, endpoint: "https://user:pw-secret@otel.example" },
        },
      },
      { environment: { OTLP_KEY: "otlp-key-value" } },
    );
    const shown = JSON.stringify(redactGatewayConfig(config));
    expect(shown).not.toContain("otlp-key-value");
    expect(shown).not.toContain("team-a");
    expect(shown).not.toContain("pw-secret");
    expect(redactGatewayConfig(config).telemetry).toMatchObject({
      otlp: {
        headers: { "x-api-key": REDACTED, "x-tenant": REDACTED },
        serviceName: "edge-gateway",
      },
    });
    const secrets = collectConfigSecrets(config);
    expect(secrets).toContain("otlp-key-value");
    expect(secrets).toContain("team-a");
    expect(secrets).toContain("pw-secret");
  });
});
