// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are config values with ${VAR} references, not templates

import { GatewayConfigError } from "@patchbay/router";
import { describe, expect, it } from "vitest";
import { parseProxyConfig } from "./parse-proxy-config.js";

const servers = { mcpServers: { a: { command: "x" } } };

function issuesOf(value: unknown): { path: string; message: string }[] {
  try {
    parseProxyConfig(value);
  } catch (error) {
    if (error instanceof GatewayConfigError) return [...error.issues];
    throw error;
  }
  throw new Error("expected the config to be rejected");
}

describe("the proxy's cluster block", () => {
  it("is kept as written, with ${VAR} expanded", () => {
    const { config, warnings } = parseProxyConfig(
      { ...servers, cluster: { redis: "redis://${REDIS_HOST}:6379", replicaId: "proxy-1" } },
      { environment: { REDIS_HOST: "10.0.0.5" } },
    );
    expect(warnings).toEqual([]);
    expect(config.cluster).toEqual({ redis: "redis://10.0.0.5:6379", replicaId: "proxy-1" });
  });

  it("is absent when the file has none", () => {
    expect(parseProxyConfig(servers).config.cluster).toBeUndefined();
  });

  it("accepts TLS and unix-socket addresses", () => {
    for (const redis of ["rediss://user:pw@redis.example.com:6380/2", "unix:///run/redis.sock"]) {
      expect(parseProxyConfig({ ...servers, cluster: { redis } }).config.cluster?.redis).toBe(
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

  it("takes the heartbeat's interval and timeout, and refuses a timeout shorter than the interval", () => {
    const cluster = { redis: "redis://h:1", heartbeatIntervalMs: 500, heartbeatTimeoutMs: 1500 };
    expect(parseProxyConfig({ ...servers, cluster }).config.cluster).toEqual(cluster);
    expect(
      issuesOf({ ...servers, cluster: { redis: "redis://h:1", heartbeatTimeoutMs: 1000 } }),
    ).toEqual([
      {
        path: "cluster.heartbeatTimeoutMs",
        message: "must be at least heartbeatIntervalMs (default 2000)",
      },
    ]);
    expect(
      issuesOf({ ...servers, cluster: { redis: "redis://h:1", heartbeatIntervalMs: 10 } })[0]?.path,
    ).toBe("cluster.heartbeatIntervalMs");
  });

  it("takes the cluster secret from the environment, and refuses a short one without showing it", () => {
    const secret = "s".repeat(44);
    const { config } = parseProxyConfig(
      {
        ...servers,
        cluster: {
          redis: "redis://h:1",
          secret: "${PATCHBAY_CLUSTER_SECRET}",
          previousSecrets: ["o".repeat(32)],
        },
      },
      { environment: { PATCHBAY_CLUSTER_SECRET: secret } },
    );
    expect(config.cluster).toEqual({
      redis: "redis://h:1",
      secret,
      previousSecrets: ["o".repeat(32)],
    });
    const short = issuesOf({ ...servers, cluster: { redis: "redis://h:1", secret: "short-one" } });
    expect(short).toEqual([
      {
        path: "cluster.secret",
        message: "must be at least 32 characters (openssl rand -base64 32)",
      },
    ]);
    expect(JSON.stringify(short)).not.toContain("short-one");
    const oldShort = { redis: "redis://h:1", secret, previousSecrets: ["x"] };
    expect(issuesOf({ ...servers, cluster: oldShort })[0]?.path).toBe("cluster.previousSecrets[0]");
  });

  it("refuses a misspelt key, naming the key it meant", () => {
    expect(issuesOf({ ...servers, cluster: { redis: "redis://h:1", replicaID: "x" } })).toEqual([
      {
        path: "cluster.replicaID",
        message:
          "unknown key replicaID; did you mean replicaId? (this block decides who gets in, so an unknown key is an error, not ignored)",
      },
    ]);
  });
});

describe("the blocks that decide who gets in fail closed", () => {
  const token = { name: "ci", token: "0123456789abcdef-ci" };

  it("refuses a misspelt auth key instead of serving without auth", () => {
    const issues = issuesOf({ ...servers, auth: { token: [token] } });
    expect(issues).toContainEqual({
      path: "auth.token",
      message:
        "unknown key token; did you mean tokens? (this block decides who gets in, so an unknown key is an error, not ignored)",
    });
    expect(issues.map((issue) => issue.path)).toContain("auth");
  });

  it("refuses an auth block that yields no token unless it says disabled", () => {
    expect(issuesOf({ ...servers, auth: {} })[0]?.path).toBe("auth");
    expect(issuesOf({ ...servers, auth: { tokens: [] } })[0]?.message).toContain(
      'or "disabled": true to serve without auth on purpose',
    );
    expect(parseProxyConfig({ ...servers, auth: { disabled: true } }).config.auth).toEqual({
      disabled: true,
    });
  });

  it("takes an oauth section as the credentials of an auth block, never beside disabled", () => {
    const oauth = { issuer: "https://as.example", publicUrl: "https://mcp.example", scopes: {} };
    expect(parseProxyConfig({ ...servers, auth: { oauth } }).config.auth).toEqual({ oauth });
    expect(issuesOf({ ...servers, auth: { disabled: true, oauth } })).toEqual([
      {
        path: "auth.disabled",
        message: "auth is disabled, yet oauth is set: remove one or the other",
      },
    ]);
    expect(issuesOf({ ...servers, auth: { oauth: "https://as.example" } })[0]?.path).toBe(
      "auth.oauth",
    );
    const principalLike = { name: "https://as.example#alice", token: "0123456789abcdef-pl" };
    expect(issuesOf({ ...servers, auth: { oauth, tokens: [principalLike] } })[0]?.path).toBe(
      "auth.tokens[0].name",
    );
  });

  it("refuses disabled beside tokens, two tokens of one name and unknown keys of a token", () => {
    expect(issuesOf({ ...servers, auth: { disabled: true, tokens: [token] } })).toEqual([
      {
        path: "auth.disabled",
        message: "auth is disabled, yet tokens are listed: remove one or the other",
      },
    ]);
    const twice = {
      ...servers,
      auth: { tokens: [token, { ...token, token: "fedcba9876543210-x" }] },
    };
    expect(issuesOf(twice)).toEqual([
      {
        path: "auth.tokens[1].name",
        message: 'another token is already named "ci": give each token its own name',
      },
    ]);
    expect(
      issuesOf({ ...servers, auth: { tokens: [{ ...token, profile: ["a"] }] } })[0]?.path,
    ).toBe("auth.tokens[0].profile");
  });

  it("takes operator: true on a token, and refuses a misspelt or non-boolean operator", () => {
    const operator = { ...token, operator: true };
    expect(parseProxyConfig({ ...servers, auth: { tokens: [operator] } }).config.auth).toEqual({
      tokens: [operator],
    });
    expect(issuesOf({ ...servers, auth: { tokens: [{ ...token, operater: true }] } })).toEqual([
      {
        path: "auth.tokens[0].operater",
        message:
          "unknown key operater; did you mean operator? (this block decides who gets in, so an unknown key is an error, not ignored)",
      },
    ]);
    expect(
      issuesOf({ ...servers, auth: { tokens: [{ ...token, operator: "yes" }] } })[0]?.path,
    ).toBe("auth.tokens[0].operator");
  });

  it("refuses unknown keys of http", () => {
    expect(issuesOf({ ...servers, http: { trustProxies: true } })[0]?.path).toBe(
      "http.trustProxies",
    );
  });
});
