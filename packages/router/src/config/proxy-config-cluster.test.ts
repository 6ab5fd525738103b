// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are config values with ${VAR} references, not templates
import { describe, expect, it } from "vitest";
import { GatewayConfigError } from "./gateway-config-error.js";
import { parseGatewayConfig } from "./parse-gateway-config.js";

const servers = { mcpServers: { a: { command: "x" } } };

function issuesOf(value: unknown): { path: string; message: string }[] {
  try {
    parseGatewayConfig(value);
  } catch (error) {
    if (error instanceof GatewayConfigError) return [...error.issues];
    throw error;
  }
  throw new Error("expected the config to be rejected");
}

describe("the proxy's cluster block", () => {
  it("is kept as written, with ${VAR} expanded", () => {
    const { config, warnings } = parseGatewayConfig(
      { ...servers, cluster: { redis: "redis://${REDIS_HOST}:6379", replicaId: "proxy-1" } },
      { environment: { REDIS_HOST: "10.0.0.5" } },
    );
    expect(warnings).toEqual([]);
    expect(config.cluster).toEqual({ redis: "redis://10.0.0.5:6379", replicaId: "proxy-1" });
  });

  it("is absent when the file has none", () => {
    expect(parseGatewayConfig(servers).config.cluster).toBeUndefined();
  });

  it("accepts TLS and unix-socket addresses", () => {
    for (const redis of ["rediss://user:pw@redis.example.com:6380/2", "unix:///run/redis.sock"]) {
      expect(parseGatewayConfig({ ...servers, cluster: { redis } }).config.cluster?.redis).toBe(
        redis,
      );
    }
  });

  it("refuses an address that is not a Redis URL, naming the path", () => {
    expect(issuesOf({ ...servers, cluster: { redis: "http://127.0.0.1:6379" } })).toEqual([
      { path: "cluster.redis", message: "expected redis://host:port, rediss://… or unix:///path" },
    ]);
  });

  it("refuses a replica id with characters that do not fit a Redis key or a metric label", () => {
    expect(
      issuesOf({ ...servers, cluster: { redis: "redis://h:1", replicaId: "a b" } })[0]?.path,
    ).toBe("cluster.replicaId");
  });

  it("suggests the key a typo meant", () => {
    const { warnings } = parseGatewayConfig({
      ...servers,
      cluster: { redis: "redis://h:1", replicaID: "x" },
    });
    expect(warnings).toEqual(["cluster.replicaID: unknown key replicaID; did you mean replicaId?"]);
  });
});
