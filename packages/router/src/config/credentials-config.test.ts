import { describe, expect, it } from "vitest";
import { credentialSlotsOf, setByUser, withCredentialValues } from "./credentials-config.js";
import { GatewayConfigError } from "./gateway-config-error.js";
import { parseGatewayConfig } from "./parse-gateway-config.js";

function issuesOf(value: unknown): string[] {
  try {
    parseGatewayConfig(value);
  } catch (error) {
    if (error instanceof GatewayConfigError) {
      return error.issues.map((issue) => `${issue.path}: ${issue.message}`);
    }
    throw error;
  }
  throw new Error("expected the config to be rejected");
}

const remote = {
  url: "https://example.com/mcp",
  headers: { "X-Team": "blue" },
  isolation: "per-principal",
  credentials: { headers: { Authorization: "Bearer {{token}}", "X-Org": "{{org}}" } },
};

describe("per-principal credentials in the config", () => {
  it("reads a per-principal backend's slots and fills them for its transport only", () => {
    const { config } = parseGatewayConfig({
      mcpServers: {
        gh: remote,
        local: { command: "x", isolation: "per-principal", credentials: { env: ["GH_TOKEN"] } },
      },
      credentials: { file: "credentials.json" },
    });
    const [gh, local] = config.backends;
    expect(config.credentials).toEqual({ file: "credentials.json" });
    expect(gh?.isolation).toBe("per-principal");
    expect(credentialSlotsOf(gh as never)).toEqual(["token", "org"]);
    expect(credentialSlotsOf(local as never)).toEqual(["GH_TOKEN"]);
    const filled = withCredentialValues(gh as never, { token: "t1", org: "o1" });
    expect(filled).toMatchObject({
      headers: { "X-Team": "blue", Authorization: "Bearer t1", "X-Org": "o1" },
    });
    expect(withCredentialValues(local as never, { GH_TOKEN: "t2" })).toMatchObject({
      env: { GH_TOKEN: "t2" },
    });
    // The config itself keeps the templates.
    expect(gh).toMatchObject({ headers: { "X-Team": "blue" } });
  });

  it("refuses credentials that cannot decide a principal's values", () => {
    expect(
      issuesOf({
        mcpServers: {
          a: { url: "https://example.com/mcp", isolation: "per-principal" },
          b: { url: "https://example.com/mcp", credentials: { headers: { A: "{{x}}" } } },
          c: { command: "x", isolation: "per-principal", credentials: { headers: { A: "{{x}}" } } },
          d: { ...remote, credentials: { headers: { Authorization: "Bearer fixed" } } },
          e: { ...remote, credentials: { headers: { A: "{{x}}" }, extra: true } },
        },
      }),
    ).toEqual(['mcpServers.e.credentials: Unrecognized key: "extra"']);
    expect(
      issuesOf({
        mcpServers: {
          a: { url: "https://example.com/mcp", isolation: "per-principal" },
          b: { url: "https://example.com/mcp", credentials: { headers: { A: "{{x}}" } } },
          c: { command: "x", isolation: "per-principal", credentials: { headers: { A: "{{x}}" } } },
          d: { ...remote, credentials: { headers: { Authorization: "Bearer fixed" } } },
        },
      }),
    ).toEqual([
      'mcpServers.a.credentials: isolation "per-principal" needs "credentials"',
      'mcpServers.b.credentials: credentials need isolation "per-principal"',
      'mcpServers.c.credentials.headers: headers apply to a "url" backend only',
      "mcpServers.d.credentials.headers.Authorization: expected a template naming at least one slot, as {{token}} ([A-Za-z0-9_.-])",
    ]);
  });

  it("reads setByUser: each principal may enter its own values (the operator alone by default)", () => {
    const { config } = parseGatewayConfig({
      mcpServers: {
        gh: { ...remote, credentials: { ...remote.credentials, setByUser: true } },
        ops: remote,
        local: {
          command: "x",
          isolation: "per-principal",
          credentials: { env: ["GH_TOKEN"], setByUser: true },
        },
      },
      credentials: { file: "credentials.json" },
    });
    const [gh, ops, local] = config.backends;
    expect(gh?.credentials).toEqual({ ...remote.credentials, setByUser: true });
    expect([gh, ops, local].map((backend) => setByUser(backend as never))).toEqual([
      true,
      false,
      true,
    ]);
    // The flag names no slot.
    expect(credentialSlotsOf(gh as never)).toEqual(["token", "org"]);
  });

  it("refuses a setByUser that is not true or false, or misspelt (naming the likely intent)", () => {
    expect(
      issuesOf({
        mcpServers: { gh: { ...remote, credentials: { ...remote.credentials, setByUser: "yes" } } },
      }),
    ).toEqual(["mcpServers.gh.credentials.setByUser: expected boolean, received string"]);
    expect(
      issuesOf({
        mcpServers: { gh: { ...remote, credentials: { ...remote.credentials, setbyUser: true } } },
      }),
    ).toEqual([
      'mcpServers.gh.credentials: Unrecognized key: "setbyUser"',
      "mcpServers.gh.credentials.setbyUser: unknown key setbyUser; did you mean setByUser? (a credential setting under an unknown name would not apply, so it is an error)",
    ]);
    expect(
      issuesOf({
        mcpServers: { gh: { ...remote, credentials: { setByUser: true } } },
      }),
    ).toEqual(['mcpServers.gh.credentials: expected "headers" or "env"']);
  });
});
