import { parseGatewayConfig } from "@patchbay/router";
import { describe, expect, it } from "vitest";
import { principalCredentialStates } from "./principal-credentials.js";

const { config } = parseGatewayConfig({
  mcpServers: {
    shared: { command: "x" },
    gh: {
      url: "https://example.com/mcp",
      isolation: "per-principal",
      credentials: { headers: { Authorization: "Bearer {{token}}", "X-Org": "{{org}}" } },
    },
    jira: {
      command: "jira-mcp",
      isolation: "per-principal",
      credentials: { env: ["JIRA_TOKEN"], setByUser: true },
    },
    sso: { url: "https://example.com/mcp", isolation: "per-principal", oauth: {} },
  },
});

describe("principalCredentialStates", () => {
  it("tells, per per-principal backend, who has every slot, some or none stored; never a value", () => {
    const places = [
      { principal: "alice", backend: "gh", slot: "token" },
      { principal: "alice", backend: "gh", slot: "org" },
      { principal: "bob", backend: "gh", slot: "token" },
      { principal: "bob", backend: "jira", slot: "JIRA_TOKEN" },
      // An OAuth principal, known only from the store; its token and sign-in details.
      { principal: "https://idp.example#u1", backend: "sso", slot: "access_token" },
      { principal: "https://idp.example#u1", backend: "sso", slot: "oauth" },
      // A backend no longer in the config: not shown.
      { principal: "alice", backend: "gone", slot: "token" },
    ];
    const states = principalCredentialStates(config.backends, ["bob", "alice", "carol"], {
      places: () => places,
    });
    expect(states).toEqual([
      {
        backend: "gh",
        setBy: "operator",
        principals: [
          { principal: "alice", state: "stored" },
          { principal: "bob", state: "partial" },
          { principal: "carol", state: "missing" },
        ],
      },
      {
        backend: "jira",
        setBy: "principal",
        principals: [
          { principal: "alice", state: "missing" },
          { principal: "bob", state: "stored" },
          { principal: "carol", state: "missing" },
        ],
      },
      {
        backend: "sso",
        setBy: "oauth",
        principals: [
          { principal: "alice", state: "missing" },
          { principal: "bob", state: "missing" },
          { principal: "carol", state: "missing" },
          { principal: "https://idp.example#u1", state: "stored" },
        ],
      },
    ]);
  });
});
