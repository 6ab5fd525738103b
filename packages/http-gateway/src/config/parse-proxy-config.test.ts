import { GatewayConfigError, parseGatewayConfig } from "@patchbay/router";
import { describe, expect, it } from "vitest";
import { parseProxyConfig } from "./parse-proxy-config.js";

const servers = { mcpServers: { a: { command: "x" } } };
const misspelt = { ...servers, auth: { tokns: [{ name: "ci", token: "0123456789abcdef-ci" }] } };

describe("parseProxyConfig", () => {
  it("refuses a misspelt auth key: the proxy's parser fails closed", () => {
    let caught: unknown;
    try {
      parseProxyConfig(misspelt);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(GatewayConfigError);
    expect((caught as GatewayConfigError).issues).toEqual([
      {
        path: "auth.tokns",
        message:
          "unknown key tokns; did you mean tokens? (this block decides who gets in, so an unknown key is an error, not ignored)",
      },
      {
        path: "auth",
        message:
          'expected "tokens" with at least one token, or "oauth" (or "disabled": true to serve without auth on purpose); an auth block without any would let every client in',
      },
    ]);
  });

  it("is what checks auth: the router alone neither reads nor checks it", () => {
    const { config, warnings } = parseGatewayConfig(misspelt);
    expect(warnings).toEqual(["auth: unknown key, ignored"]);
    expect(config).not.toHaveProperty("auth");
  });

  it("carries the proxy's blocks and the router's, limits.tools with the proxy's limits", () => {
    const limits = { tools: { "a__*": { concurrent: 1 } }, maxSessions: 3 };
    const http = { allowedHosts: "any" as const, trustProxy: true };
    const { config, warnings } = parseProxyConfig({ ...servers, limits, http });
    expect(warnings).toEqual([]);
    expect(config.limits).toEqual(limits);
    expect(config.http).toEqual(http);
    expect(config.backends.map((backend) => backend.name)).toEqual(["a"]);
  });

  it("warns about an unknown limits key, naming the likely intent, as the router's blocks do", () => {
    const { warnings } = parseProxyConfig({ ...servers, limits: { maxSesions: 3 } });
    expect(warnings).toEqual([
      "limits.maxSesions: unknown key maxSesions; did you mean maxSessions?",
    ]);
  });

  it("takes http.keepAliveIntervalMs from 0 (off) and refuses a negative one, naming the key", () => {
    expect(parseProxyConfig({ ...servers, http: { keepAliveIntervalMs: 0 } }).config.http).toEqual({
      keepAliveIntervalMs: 0,
    });
    let caught: unknown;
    try {
      parseProxyConfig({ ...servers, http: { keepAliveIntervalMs: -1 } });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(GatewayConfigError);
    expect((caught as GatewayConfigError).issues.map((issue) => issue.path)).toEqual([
      "http.keepAliveIntervalMs",
    ]);
  });
});
